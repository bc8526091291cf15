# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference host-kvm-v7.dat.report, header line included)
$KTF tests/fixtures/tracedat/host-kvm-v7.dat | diff tests/fixtures/tracedat/host-kvm-v7.dat.report - && echo same as trace-cmd report
