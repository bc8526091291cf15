$KTF --stats --guest-syms tests/fixtures/exits/no-such-file tests/fixtures/exits/exits-elf.kvmtrace
