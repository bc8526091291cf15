# requires: tracecmd
# --vcpu on a plain host trace.dat keeps the events with a vCPU field only
# (kvmtrace_format(1)); --pid follows the vCPU thread instead
$KTF --vcpu 0 tests/fixtures/tracedat/host-kvm-v7.dat; $KTF --pid 29978 tests/fixtures/tracedat/host-kvm-v7.dat | wc -l
