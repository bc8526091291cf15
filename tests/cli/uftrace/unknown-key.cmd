$KTF tests/cli/uftrace/unknown-key.formats tests/fixtures/uftrace/plain
