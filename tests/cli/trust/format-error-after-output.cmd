# requires: tracecmd
# a value a template cannot print, met after the first line went out (the
# first event has its own rule, the second is the glob's %d of a string):
# the line before, then the stop: bad data (1), not usage (2)
$KTF -f tests/cli/trust/format-error.formats tests/fixtures/tracedat/host-kvm-v6.dat
