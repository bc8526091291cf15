# "did you mean" for rules no input matches, among QEMU's names (issue 30):
# the kernel's kvm:kvm_entry and kvm:kvm_exit stay quiet (no input has the
# system kvm, and QEMU's ccm_entry, hvf_exit are no typo of them); a name
# of another system is offered as system:name; of the system asked for,
# only names within one edit in four characters (kvm_io_exit is not
# kvm_run_exit); a swap of two letters is one edit
$KTF -f tests/cli/qemu/suggest.rules --qemu-events=tests/cli/qemu/suggest.trace-events --qemu-log /dev/null
