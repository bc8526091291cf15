# requires: tracecmd
# %pS/%ps named from --kallsyms=FILE as perf script --kallsyms=FILE names them: the symbol perf keeps of several at one address (not empty, not weak, global, fewer leading underscores, the longest name), types T W D B only, no $x, each up to the next, a module's; the .out is perf 6.1's but for one line: perf leaves the first address it looks up in a module (0xffffffffc0001000, %ps) unnamed and names the same address later
$KTF --kallsyms=tests/fixtures/perf/gen-ksym.kallsyms tests/fixtures/perf/gen-ksym.data
