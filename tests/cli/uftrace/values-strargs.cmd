$KTF -f tests/cli/uftrace/values.formats tests/fixtures/uftrace/ktf-strargs
