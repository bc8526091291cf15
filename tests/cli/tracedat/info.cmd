# requires: tracecmd
$KTF -f tests/cli/tracedat/info.formats tests/fixtures/tracedat/mixed-sched.dat
