# a directory given as the trace-events file: exit 2 before any output
$KTF --qemu-events=tests/fixtures/qemu tests/fixtures/qemu/simple.bin
