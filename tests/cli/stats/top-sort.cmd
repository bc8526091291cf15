# requires: tracecmd
# --stats-top and --stats-sort: the first 2 rows of each exit table by max
$KTF --stats-top=2 --stats-sort=max tests/fixtures/exits/host-exits.dat
