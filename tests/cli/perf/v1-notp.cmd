# requires: tracecmd
# a version 1 file of software events only (as the public perf 3.3 recordings are): refused as the perf.data it is, before any output
$KTF tests/fixtures/perf/gen-v1-notp.data
