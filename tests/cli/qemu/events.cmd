$KTF --qemu-events=tests/fixtures/qemu/trace-events --events='kvm_run_exit,Dropped*' tests/fixtures/qemu/simple.bin
