# requires: tracecmd
$KTF --exits=csv tests/fixtures/exits/host-exits-anon.dat
