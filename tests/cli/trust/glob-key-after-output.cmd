# requires: tracecmd
# a glob rule whose key only some formats have: the line of the first
# event, then the stop at the event without it: bad data (1), not usage
$KTF -f tests/cli/trust/glob-key.formats tests/fixtures/tracedat/host-kvm-v6.dat
