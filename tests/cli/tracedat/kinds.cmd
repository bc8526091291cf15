# requires: tracecmd
$KTF tests/cli/tracedat/kinds.formats tests/fixtures/tracedat/mixed-sched.dat
