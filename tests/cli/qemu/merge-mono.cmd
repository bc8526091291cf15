# requires: tracecmd
$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/fixtures/qemu/host-mono.dat tests/fixtures/qemu/simple-mono.bin
