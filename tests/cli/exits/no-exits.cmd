# requires: tracecmd
# A recording with no exits (nested KVM: no kvm_exit): the header line
# alone, and a warning that says why, as --stats says "Exits: none"
$KTF --exits -c 2600 tests/fixtures/tracedat/host-kvm-v7.dat
