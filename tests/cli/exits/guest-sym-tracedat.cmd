# requires: tracecmd
$KTF --guest-syms tests/fixtures/exits/guest.kallsyms --events kvm_exit -f tests/fixtures/exits/guest-sym-tracedat.formats tests/fixtures/exits/host-exits.dat
