# requires: tracecmd
$KTF --stats --guest-syms tests/fixtures/exits/guest.kallsyms tests/fixtures/exits/host-exits.dat
