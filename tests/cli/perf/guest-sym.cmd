# requires: tracecmd
# --guest-syms names the guest function of a perf kvm_exit (guest_sym)
$KTF --guest-syms=tests/fixtures/exits/guest.kallsyms tests/cli/perf/guest-sym.formats tests/fixtures/perf/gen-le.data
