$KTF --chrome --events=kvm_run_exit tests/fixtures/qemu-log/kvm-iso.qlog
