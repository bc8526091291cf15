# requires: tracecmd
$KTF tests/fixtures/hostguest/host6.dat tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-a6.dat
