# requires: tracecmd
$KTF tests/cli/tracedat/pio.formats tests/fixtures/tracedat/host-kvm-v7.dat
