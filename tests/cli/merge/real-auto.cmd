# requires: tracecmd
# kvm_pvm announces offsets it never applies: auto misplaces every sample here
$KTF -f tests/fixtures/merge/pio-samples.formats tests/fixtures/tracedat/host-kvm-v7.dat --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset auto | sh tests/gen/check-merge.sh | tail -1
