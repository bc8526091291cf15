$KTF --qemu-events=tests/fixtures/qemu/trace-events --time-range=7000549720~7000700000 tests/fixtures/qemu/simple.bin
