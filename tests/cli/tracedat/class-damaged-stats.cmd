# requires: tracecmd
# --stats counts the 28 good records of class-damaged.dat, not the 4
# damaged ones (each said on stderr, counted at the end, exit 1)
$KTF --stats tests/fixtures/tracedat/class-damaged.dat
