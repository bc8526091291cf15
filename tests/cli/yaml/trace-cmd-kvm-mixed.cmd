# requires: tracecmd yaml
# events without a rule (sched:*) keep their default line
{ $KTF formats/trace-cmd-kvm.yaml tests/fixtures/tracedat/mixed-sched.dat; echo "status $?"; } | sed -n '1,12p;/^status/p'
