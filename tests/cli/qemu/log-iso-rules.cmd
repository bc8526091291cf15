$KTF tests/cli/qemu/log.formats tests/fixtures/qemu-log/kvm-iso.qlog
