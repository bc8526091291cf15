# a lost-records record (time 0 in the file) and a forked child
$KTF -f tests/cli/uftrace/all.formats tests/fixtures/uftrace-gen/synth
