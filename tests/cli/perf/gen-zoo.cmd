# requires: tracecmd
# printf's flags, widths and length modifiers (h hh l ll z) on fields of every size and sign, __print_symbolic without a match: the text made by hand is perf script's
$KTF tests/fixtures/perf/gen-zoo.data | diff tests/fixtures/perf/gen-zoo.data.out - && echo same as perf script
