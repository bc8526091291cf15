# requires: tracecmd
$KTF --stats=csv tests/fixtures/exits/host-exits.dat
