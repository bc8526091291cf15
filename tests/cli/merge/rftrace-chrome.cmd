# requires: tracecmd
$KTF --chrome -c 2400 tests/fixtures/tracedat/host-kvm-tsc-change.dat --guest tests/fixtures/uftrace-gen/rftrace --tsc-offset auto | grep -c "\"ph\":\"[BEX]\""
