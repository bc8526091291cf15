$KTF --qemu-events=tests/fixtures/qemu/trace-events --stats tests/fixtures/qemu/simple.bin
