# requires: tracecmd
# a trace.dat host (read an event at a time) and a kvmtrace guest (read in
# batches) whose events interleave: the merge reads them together, the
# batch it holds passed on before each host read (the host's events were
# garbage when it was not); the same text as one event at a time
$KTF tests/fixtures/hostguest/host6.dat --guest=tests/fixtures/kvmtrace/sample.bin --tsc-offset=0
