# requires: tracecmd
$KTF --stats tests/fixtures/tracedat/host-kvm-v7.dat
