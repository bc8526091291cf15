# requires: tracecmd
$KTF -f tests/fixtures/merge/pio-samples.formats tests/fixtures/tracedat/host-kvm-tsc-change.dat --guest tests/fixtures/merge/guest-offsets.kvmtrace --tsc-offset 0 2>&1 | sh tests/gen/check-merge.sh | tail -1
