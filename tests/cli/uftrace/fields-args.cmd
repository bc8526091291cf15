$KTF -f tests/cli/uftrace/fields.formats tests/fixtures/uftrace/args
