$KTF --qemu-log=tests/fixtures/qemu-log/user.qlog
