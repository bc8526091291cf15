# requires: tracecmd
# both on ns after TSC2NSEC
$KTF tests/fixtures/hostguest/host7n.dat tests/fixtures/hostguest/guest-b7n.dat
