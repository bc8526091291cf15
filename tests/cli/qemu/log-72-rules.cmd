$KTF tests/cli/qemu/log.formats tests/fixtures/qemu-log/kvm72.qlog
