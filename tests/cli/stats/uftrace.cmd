# per-function statistics: uftrace report's figures (tests/uftrace-compare.sh); on this
# fixture (a LOST record, a forked child) `uftrace report` says main 1.295 us,
# self 0.235 us, 2 calls; parse 0.890; emit 0.130; fork 0.040
$KTF --stats tests/fixtures/uftrace-gen/synth
