# requires: tracecmd
# a host trace.dat without a GUEST option has no vcpu key at all: refused
# before output, with kvm_exit's own vcpu_id among the fields
$KTF tests/cli/exits/vcpu-key.formats tests/fixtures/exits/host-exits.dat
