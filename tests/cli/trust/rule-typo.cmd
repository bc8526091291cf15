# requires: tracecmd yaml
# a rule for an event no input has: a warning with the closest names
$KTF --events=kvm_pio tests/cli/trust/typo.yaml tests/fixtures/tracedat/host-kvm-v6.dat
