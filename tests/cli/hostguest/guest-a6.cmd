# requires: tracecmd
$KTF tests/fixtures/hostguest/guest-a6.dat
