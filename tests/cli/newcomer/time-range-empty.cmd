# requires: tracecmd
# a range that selects nothing: a warning with the span the inputs cover
$KTF --time-range 106439.6s~106439.7s tests/fixtures/tracedat/host-local-clock.dat
