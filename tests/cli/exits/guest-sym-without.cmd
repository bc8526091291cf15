$KTF tests/fixtures/exits/guest-sym.formats tests/fixtures/exits/exits-elf.kvmtrace
