$KTF --qemu-log=tests/fixtures/qemu-log/user.log
