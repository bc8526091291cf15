# perf-cpu0.dat missing: perf-cpu1.dat is read as uftrace reads it, as its
# perf-cpu0 (the expected output is uftrace dump's; tests/gen/gen-uftrace-perfgap.sh)
$KTF tests/fixtures/uftrace-gen/perf-gap
