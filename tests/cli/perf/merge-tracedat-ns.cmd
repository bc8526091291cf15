# requires: tracecmd
# perf.data (perf clock, ns) with a trace.dat on the local clock (ns): one timeline
$KTF -f tests/cli/tracedat/info.formats tests/fixtures/perf/kvm.data tests/fixtures/tracedat/host-local-clock.dat | head -5
