$KTF --qemu-events=tests/fixtures/qemu/missing tests/fixtures/qemu/simple.bin
