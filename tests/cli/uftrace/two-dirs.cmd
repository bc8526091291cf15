# two directories merge into one time order
$KTF -f tests/cli/uftrace/fields.formats tests/fixtures/uftrace/plain tests/fixtures/uftrace/args
