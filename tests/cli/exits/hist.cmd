# requires: tracecmd
COLUMNS=100 $KTF --stats=hist tests/fixtures/exits/host-exits.dat
