# requires: tracecmd
# a file of trace-cmd split (no TRACECLOCK: seconds) merges with another
# x86-tsc file: its BUFFER option still says x86-tsc
$KTF tests/fixtures/hostguest/split7.dat tests/fixtures/tracedat/host-kvm-v7.dat
