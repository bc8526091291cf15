# requires: tracecmd
# --events that matches nothing in any input: a warning, status 0
$KTF --events=kvm_exti tests/fixtures/tracedat/host-kvm-v6.dat
