# requires: tracecmd
$KTF --chrome --time-range ~1100000 tests/fixtures/exits/host-exits.dat
