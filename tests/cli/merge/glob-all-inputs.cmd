# requires: tracecmd
# the guest stream's events each have their own rule; the '*' rule's info is
# a key of the host's formats: checked over all inputs together, not
# refused (issue 25, item 8)
$KTF tests/cli/merge/glob-host.formats --time-range ~7263327421038 --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset 0 tests/fixtures/tracedat/host-kvm-v7.dat
