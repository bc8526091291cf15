$KTF --qemu-events=tests/fixtures/qemu/trace-events -f tests/cli/qemu/args.formats tests/fixtures/qemu/simple.bin
