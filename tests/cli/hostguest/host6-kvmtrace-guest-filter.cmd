# requires: tracecmd
# the same merge filtered: relts between the events the filter lets
# through, across the batches each host event ends
$KTF tests/fixtures/hostguest/host6.dat --guest=tests/fixtures/kvmtrace/sample.bin --tsc-offset=0 --events kvm_pio,kvm_userspace_exit,VMEXIT,IO_WRITE
