# requires: tracecmd
# a v6 file cut inside CPU 1's data (118784 bytes: the data runs to its end)
d=$(mktemp -d) && head -c 110000 tests/fixtures/tracedat/host-kvm-v6.dat > "$d/cut.dat" && cd "$d" && $KTF cut.dat; rc=$?; rm -rf "$d"; exit $rc
