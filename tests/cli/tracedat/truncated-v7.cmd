# requires: tracecmd
# a compressed v7 file cut in the middle
d=$(mktemp -d) && head -c 9000 tests/fixtures/tracedat/host-kvm-v7-zstd.dat > "$d/cut.dat" && cd "$d" && $KTF cut.dat; rc=$?; rm -rf "$d"; exit $rc
