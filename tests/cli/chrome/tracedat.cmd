# requires: tracecmd
$KTF --chrome -c 2400 --events kvm_pio,kvm_userspace_exit,kvm_write_tsc_offset --time-range ~3026.386458334 tests/fixtures/tracedat/host-kvm-v7.dat
