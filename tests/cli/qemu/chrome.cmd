$KTF --qemu-events=tests/fixtures/qemu/trace-events --chrome tests/fixtures/qemu/simple-mono.bin
