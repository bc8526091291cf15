# requires: tracecmd
# an AUXTRACE payload that runs past the end of the data section: a truncated file, said with its offset, every sample before it printed, exit 1 (it was skipped silently, exit 0)
$KTF tests/fixtures/perf/gen-aux-past-end.data
