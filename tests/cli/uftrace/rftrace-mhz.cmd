# rftrace is on the TSC: -c converts its time stamps to seconds (relts and duration stay in ticks)
$KTF -c 2000 -f tests/cli/uftrace/mhz.formats tests/fixtures/uftrace-gen/rftrace
