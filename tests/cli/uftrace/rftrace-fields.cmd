# rftrace: raw TSC, depth 0 as written, a ring buffer starting inside calls
$KTF -f tests/cli/uftrace/all.formats tests/fixtures/uftrace-gen/rftrace
