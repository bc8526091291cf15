# requires: tracecmd
# a key the event does not have: found when the rules are checked against
# the file's formats, before any output
$KTF tests/cli/tracedat/missing-key.formats tests/fixtures/tracedat/host-kvm-v7.dat
