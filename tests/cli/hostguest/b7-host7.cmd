# requires: tracecmd
$KTF tests/fixtures/hostguest/guest-b7.dat tests/fixtures/hostguest/host7.dat
