# requires: tracecmd
$KTF --vcpu 0 --events 'kvm:*tsc*' tests/fixtures/tracedat/host-kvm-v7.dat
