$KTF tests/cli/uftrace/tid-type.formats tests/fixtures/uftrace/args
