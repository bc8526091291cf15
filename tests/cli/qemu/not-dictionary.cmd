$KTF --qemu-events=tests/cli/qemu/bad-key.formats tests/fixtures/qemu/simple.bin
