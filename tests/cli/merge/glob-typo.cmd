# requires: tracecmd
# a key no format of any input has: refused before output
$KTF tests/cli/merge/glob-typo.formats --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset 0 tests/fixtures/tracedat/host-kvm-v7.dat
