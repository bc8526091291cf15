# requires: tracecmd
# no room for an uncompressed copy of a zstd file (TMPDIR missing): read
# as it is after the checks a copy makes, every line as `trace-cmd report`
# prints it, and a note says that memory then grows with the file (valgrind cannot
# start without its TMPDIR: under check-valgrind the binary runs bare)
TMPDIR=/nonexistent/ktf ${KTF_VALGRIND_BIN:-$KTF} tests/fixtures/tracedat/host-kvm-v7-zstd.dat | diff tests/fixtures/tracedat/host-kvm-v7-zstd.dat.report - && echo same
