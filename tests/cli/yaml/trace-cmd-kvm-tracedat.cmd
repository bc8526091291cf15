# requires: tracecmd yaml
# formats/trace-cmd-kvm.yaml over a recorded trace: the first three lines
# of each event, then how many of each
{ $KTF formats/trace-cmd-kvm.yaml tests/fixtures/tracedat/host-kvm-v7.dat; echo "status $?"; } | awk '/^status/ { print; next } { n[$4]++ } n[$4] <= 3'
$KTF formats/trace-cmd-kvm.yaml tests/fixtures/tracedat/host-kvm-v7.dat | awk '{ print $4 }' | sort | uniq -c
