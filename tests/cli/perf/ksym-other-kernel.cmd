# requires: tracecmd
# %pS/%ps of a file recorded on another kernel (its HEADER_BUILD_ID is not this one's) and without --kallsyms: numbers, as perf script prints them, and said once
$KTF tests/fixtures/perf/gen-ksym.data
