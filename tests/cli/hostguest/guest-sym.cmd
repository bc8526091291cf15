# requires: tracecmd
# guest_sym: a host event's guest RIP named from the guest's kallsyms, as
# the kvm plugin names it (guest-sym.out: from trace-cmd report)
$KTF --events kvm:kvm_emulate_insn tests/cli/hostguest/guest-sym.formats tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-a6.dat
