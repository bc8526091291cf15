$KTF --live tests/fixtures/exits/host-exits.dat
