# requires: tracecmd
# perf.data (ns) with a trace.dat on x86-tsc: clocks are never mixed
$KTF -f tests/cli/tracedat/info.formats tests/fixtures/perf/kvm.data tests/fixtures/tracedat/host-kvm-v7.dat
