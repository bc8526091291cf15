# requires: tracecmd
$KTF -f tests/fixtures/merge/fields.formats tests/fixtures/tracedat/host-kvm-v7.dat --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset -5 | grep -E "guest" | head -3
