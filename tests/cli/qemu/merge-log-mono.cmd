# requires: tracecmd
$KTF tests/fixtures/qemu/host-mono.dat tests/fixtures/qemu-log/kvm72.qlog
