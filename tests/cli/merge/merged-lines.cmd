# requires: tracecmd
$KTF -f tests/fixtures/merge/pio-samples.formats tests/fixtures/tracedat/host-kvm-v7.dat --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset 0 | grep -E "sample|port=0x10" | head -6
