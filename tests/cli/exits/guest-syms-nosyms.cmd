$KTF --stats --guest-syms tests/fixtures/exits/guest.c tests/fixtures/exits/exits-elf.kvmtrace
