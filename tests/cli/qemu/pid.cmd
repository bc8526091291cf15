$KTF --qemu-events=tests/fixtures/qemu/trace-events --pid=4243 tests/fixtures/qemu/simple.bin
