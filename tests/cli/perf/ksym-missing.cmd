# requires: tracecmd
# a --kallsyms file that cannot be read: refused before any output, exit 2
$KTF --kallsyms=tests/fixtures/perf/nothere.kallsyms tests/fixtures/perf/gen-ksym.data
