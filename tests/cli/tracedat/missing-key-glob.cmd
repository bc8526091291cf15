# requires: tracecmd
# a glob rule binds when it first meets an event type, here the very first
# event (kvm_update_master_clock, which has no port): exit 2, nothing printed
$KTF tests/cli/tracedat/missing-key-glob.formats tests/fixtures/tracedat/host-kvm-v7.dat
