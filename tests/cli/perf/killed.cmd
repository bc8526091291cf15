# requires: tracecmd
# a killed perf record: data size 0 in the header, the feature bits it set at the start, no feature sections: perf's words (the feature table was read from the data: "offset 0x90000000000045")
$KTF tests/fixtures/perf/gen-killed.data
