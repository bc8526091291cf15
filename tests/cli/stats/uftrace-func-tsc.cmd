# a TSC recording with -c: seconds
$KTF --stats -c 2000 tests/fixtures/uftrace-gen/rftrace
