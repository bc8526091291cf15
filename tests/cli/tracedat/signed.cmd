# requires: tracecmd
$KTF tests/cli/tracedat/signed.formats tests/fixtures/tracedat/tc-syscalls.dat | grep -E '= -|exec|fork'
