# requires: tracecmd
# --vcpu selects guest events of that CPU and host events of its thread
# (an event with a vcpu_id field of its own goes by that: the guest's
# kvm_write_tsc_offset of vcpu=0 is not in)
$KTF --vcpu 1 tests/cli/hostguest/vcpu-filter.formats tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-a6.dat tests/fixtures/hostguest/guest-b7.dat | sort | uniq -c
