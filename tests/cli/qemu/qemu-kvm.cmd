# requires: tracecmd yaml
$KTF --qemu-events=tests/fixtures/qemu/trace-events -f formats/qemu-kvm.yaml tests/fixtures/qemu/host-mono.dat tests/fixtures/qemu/simple-mono.bin
