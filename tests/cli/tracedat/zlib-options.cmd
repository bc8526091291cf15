# requires: tracecmd
# a v7 file whose header says zlib (its first options section zlib-compressed
# by tests/gen/mangle-tracedat.py): Debian's libtracecmd cannot open it, so
# an uncompressed copy is read; the lines are trace-cmd report's of the original
d=$(mktemp -d) && python3 tests/gen/mangle-tracedat.py zlib-options tests/fixtures/tracedat/host-kvm-v7.dat "$d/z.dat" && $KTF "$d/z.dat" | diff tests/fixtures/tracedat/host-kvm-v7.dat.report - && echo same as trace-cmd report of the original; rc=$?; rm -rf "$d"; exit $rc
