$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/cli/qemu/log.formats tests/fixtures/qemu/mixed.qlog
