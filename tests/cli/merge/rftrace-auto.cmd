# requires: tracecmd yaml
# the merge.py workflow in one command: a guest uftrace stamped with the TSC
# (rftrace), the host kvm trace on x86-tsc, offsets from kvm_write_tsc_offset
$KTF -f formats/host-guest.yaml tests/fixtures/tracedat/host-kvm-tsc-change.dat --guest tests/fixtures/uftrace-gen/rftrace --tsc-offset auto | grep " guest " | head -8
