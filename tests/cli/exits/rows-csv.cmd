# one row per exit; unpaired rows have no duration; --host names the host
$KTF --exits --host=h1 -c 1000 --guest-syms tests/fixtures/exits/guest.elf tests/fixtures/exits/exits-elf.kvmtrace
