$KTF --chrome --qemu-events=tests/fixtures/qemu/trace-events --events memory_region_ops_read tests/fixtures/qemu/simple.bin | grep -m2 memory_region
