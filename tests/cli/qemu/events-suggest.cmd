# --events' "did you mean" among QEMU's names: of the system asked for,
# within a sensible distance (kvm:kvm_entry: not ccm_entry)
$KTF --events=kvm:kvm_entry,qemu:kvm_run_exti,VMEXTI,dma_blk_oi --qemu-events=tests/cli/qemu/suggest.trace-events --qemu-log /dev/null
