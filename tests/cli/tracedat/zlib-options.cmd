# requires: tracecmd
# a v7 file whose header says zlib (its options section zlib-compressed by
# tests/gen/mangle-tracedat.py): the options read, libtracecmd refuses it
d=$(mktemp -d) && python3 tests/gen/mangle-tracedat.py zlib-options tests/fixtures/tracedat/host-kvm-v7.dat "$d/z.dat" && cd "$d" && $KTF z.dat; rc=$?; rm -rf "$d"; exit $rc
