$KTF --guest-syms tests/fixtures/exits/guest.elf tests/fixtures/exits/guest-sym.formats tests/fixtures/exits/exits-elf.kvmtrace tests/fixtures/exits/exits-elf.kvmtrace
