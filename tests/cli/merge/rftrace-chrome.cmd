# requires: tracecmd
$KTF --chrome tests/fixtures/tracedat/host-kvm-tsc-change.dat --guest tests/fixtures/uftrace-gen/rftrace --tsc-offset auto | grep -c "\"ph\":\"[BEX]\""
