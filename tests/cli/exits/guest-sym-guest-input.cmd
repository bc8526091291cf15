$KTF --guest-syms tests/fixtures/exits/guest.elf --tsc-offset 0 tests/fixtures/exits/guest-sym.formats tests/fixtures/exits/exits-elf.kvmtrace --guest tests/fixtures/exits/exits-elf.kvmtrace
