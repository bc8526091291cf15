# requires: tracecmd
# --events kept the exits and left their entries out: every exit is
# unpaired, and a warning says why
$KTF --stats --events kvm:kvm_exit tests/fixtures/exits/host-exits.dat
