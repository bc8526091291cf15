$KTF tests/fixtures/uftrace-gen/bad-info
