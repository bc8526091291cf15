# requires: tracecmd
# --events kept the exits and left their entries out: each exit is a mark
# (the last of a vCPU a slice to the end), and a warning says why
$KTF --chrome --events kvm:kvm_exit --time-range ~1100000 tests/fixtures/exits/host-exits.dat
