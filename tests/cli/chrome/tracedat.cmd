# requires: tracecmd
$KTF --chrome --events kvm_pio,kvm_userspace_exit,kvm_write_tsc_offset --time-range ~7263327500000 tests/fixtures/tracedat/host-kvm-v7.dat
