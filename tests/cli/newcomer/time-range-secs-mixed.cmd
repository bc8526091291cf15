# requires: tracecmd
# one end in seconds, the other in ts as it prints (ns)
$KTF --time-range 2795.41174316s~2795411743162 tests/fixtures/tracedat/host-local-clock.dat
