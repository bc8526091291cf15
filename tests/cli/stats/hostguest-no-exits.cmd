# requires: tracecmd
# Host and guest trace.dat without an exit (nested KVM): "Exits: none", and
# no empty table of exits by guest function after it
$KTF --stats tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-b7.dat
