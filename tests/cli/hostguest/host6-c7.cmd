# requires: tracecmd
$KTF tests/fixtures/hostguest/host6.dat tests/fixtures/hostguest/guest-c7.dat
