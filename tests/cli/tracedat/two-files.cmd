# requires: tracecmd
# the same recording twice (v6 and v7): one timeline, ties in input order
$KTF -f tests/cli/tracedat/two-files.formats tests/fixtures/tracedat/host-kvm-v6.dat tests/fixtures/tracedat/host-kvm-v7-zstd.dat | grep -v '^-$' | head -12
