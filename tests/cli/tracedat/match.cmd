# requires: tracecmd
$KTF tests/cli/tracedat/match.formats tests/fixtures/tracedat/mixed-sched.dat
