# requires: tracecmd
# --stats with --guest-syms: exits of a perf.data by guest function
$KTF --stats --guest-syms=tests/fixtures/exits/guest.kallsyms tests/fixtures/perf/gen-stats.data | sed -n "/function/,/^\$/p"
