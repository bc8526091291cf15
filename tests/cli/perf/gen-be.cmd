# requires: tracecmd
# tests/gen/gen-perfdata.py: the events of gen-le.data (perf script's text in gen-le.data.out) in another layout or byte order
$KTF tests/fixtures/perf/gen-be.data | diff tests/fixtures/perf/gen-le.data.out - && echo same as perf script of gen-le
