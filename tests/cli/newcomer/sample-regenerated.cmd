# issue 28: the README's sample is what its script makes of the recording (tests/fixtures/kvmtrace/make-fixtures.sh)
python3 tests/gen/gen-sample-kvmtrace.py tests/fixtures/tracedat/host-kvm-v6.dat.report | cmp - tests/fixtures/kvmtrace/sample.bin && echo same
