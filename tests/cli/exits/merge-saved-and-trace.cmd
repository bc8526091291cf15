$KTF --stats tests/fixtures/exits/host-a.stats.json tests/fixtures/exits/exits-elf.kvmtrace
