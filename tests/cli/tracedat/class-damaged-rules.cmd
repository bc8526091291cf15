# requires: tracecmd
# with rules, the damaged records are left out (said and counted on
# stderr, exit 1); every good record of both CPUs prints
$KTF -f tests/cli/tracedat/class.formats tests/fixtures/tracedat/class-damaged.dat
