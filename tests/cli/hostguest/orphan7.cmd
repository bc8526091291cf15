# requires: tracecmd
$KTF tests/fixtures/hostguest/orphan7.dat
