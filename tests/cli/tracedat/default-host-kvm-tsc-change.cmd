# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it (its
# reference host-kvm-tsc-change.dat.report, header line included)
$KTF tests/fixtures/tracedat/host-kvm-tsc-change.dat | diff tests/fixtures/tracedat/host-kvm-tsc-change.dat.report - && echo same as trace-cmd report
