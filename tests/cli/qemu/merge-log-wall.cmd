# requires: tracecmd
$KTF --clock=tests/fixtures/qemu/host-mono.dat=wall --stats tests/fixtures/qemu/host-mono.dat tests/fixtures/qemu-log/kvm72.qlog
