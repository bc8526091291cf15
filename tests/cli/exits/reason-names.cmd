# requires: tracecmd
# %(exit_reason)s names the reason from the kernel's print format (VMX's
# table, picked by its isa as info does), %d the number (issue 28, item 4)
$KTF --events kvm_exit --time-range ~1100000 tests/cli/exits/reason-names.formats tests/fixtures/exits/host-exits.dat
$KTF --events kvm_userspace_exit tests/cli/exits/reason-names.formats tests/fixtures/tracedat/host-kvm-v7.dat | head -3
