$KTF --stats=xml tests/fixtures/exits/exits-elf.kvmtrace
