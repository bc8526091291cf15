$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/fixtures/qemu/simple-cut.bin
