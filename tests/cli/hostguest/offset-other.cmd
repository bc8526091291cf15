# requires: tracecmd
# --tsc-offset applies to the kvmtrace guest, not again to the
# TIME_SHIFT guest (its ts as libtracecmd gives it: see keys.out)
$KTF tests/cli/hostguest/offset-other.formats tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-b7.dat --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset -1000 --events kvm:kvm_userspace_exit,0x00030001
