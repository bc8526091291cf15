# requires: tracecmd
# what perf record leaves when it is killed (data size 0, no formats): refused with the reason, before any output
$KTF tests/fixtures/perf/gen-unfinished.data
