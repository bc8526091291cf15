# requires: tracecmd
# --events kept the exits and left their entries out: no exit has a
# duration, and a warning says why (the rows are written, without one)
$KTF --exits --events kvm:kvm_exit tests/fixtures/exits/host-exits.dat
