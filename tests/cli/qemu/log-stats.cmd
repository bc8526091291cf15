$KTF --stats tests/fixtures/qemu-log/kvm72.qlog
