$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/cli/qemu/bad-key.formats tests/fixtures/qemu/simple.bin
