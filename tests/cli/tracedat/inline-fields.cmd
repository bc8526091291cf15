# requires: tracecmd
# the fields render.c reads inline print as through the general path
$KTF -f tests/cli/tracedat/inline.formats tests/fixtures/tracedat/mixed-sched.dat
