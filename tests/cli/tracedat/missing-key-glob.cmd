# requires: tracecmd
# a glob rule's key that some of its formats have (kvm_pio's port) and
# others lack: the events that lack it print it empty, and one warning
# at the end counts them (issue 28, item 4; it used to stop the run)
$KTF --time-range ~7263327421038 tests/cli/tracedat/missing-key-glob.formats tests/fixtures/tracedat/host-kvm-v7.dat
