$KTF -f tests/cli/qemu/log.formats --qemu-log=tests/fixtures/qemu-log/user.qlog
