# requires: tracecmd
$KTF tests/fixtures/hostguest/split7.dat
