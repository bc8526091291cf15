# requires: tracecmd
$KTF --qemu-events=tests/fixtures/qemu/trace-events --clock=tests/fixtures/tracedat/clock-uptime.dat=mono --events='kvm_run_exit,kvm_exit,kvm_userspace_exit' tests/fixtures/tracedat/clock-uptime.dat tests/fixtures/qemu/simple-mono.bin
