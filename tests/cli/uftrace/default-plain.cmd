$KTF tests/fixtures/uftrace/plain
