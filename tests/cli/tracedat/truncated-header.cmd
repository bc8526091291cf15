# requires: tracecmd
# a v6 file cut inside its headers
d=$(mktemp -d) && head -c 3000 tests/fixtures/tracedat/host-kvm-v6.dat > "$d/cut.dat" && cd "$d" && $KTF cut.dat; rc=$?; rm -rf "$d"; exit $rc
