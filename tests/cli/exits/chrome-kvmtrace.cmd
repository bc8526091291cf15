$KTF --chrome -c 1000 --time-range ~0.0011 tests/fixtures/exits/exits-elf.kvmtrace
