# requires: tracecmd
# a guest stamped as a non-nested guest would be, after three offset writes
$KTF -f tests/fixtures/merge/pio-samples.formats tests/fixtures/tracedat/host-kvm-tsc-change.dat --guest tests/fixtures/merge/guest-offsets.kvmtrace --tsc-offset auto | sh tests/gen/check-merge.sh
