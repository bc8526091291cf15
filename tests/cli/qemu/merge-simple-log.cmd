$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/fixtures/qemu/simple-mono.bin tests/fixtures/qemu-log/kvm72.qlog
