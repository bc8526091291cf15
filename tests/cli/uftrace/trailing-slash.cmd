$KTF tests/fixtures/uftrace/plain/ | head -2
