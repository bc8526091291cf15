# Guest symbols none of whose functions holds an exit's RIP (a kernel's
# kallsyms beside the exits of a user-space ELF guest): the table says
# why it is empty
$KTF --stats --guest-syms tests/fixtures/exits/guest.kallsyms tests/fixtures/exits/exits-elf.kvmtrace
