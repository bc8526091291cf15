$KTF --stats -c 1000 --guest-syms tests/fixtures/exits/guest.elf tests/fixtures/exits/exits-elf.kvmtrace
