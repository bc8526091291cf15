$KTF tests/fixtures/uftrace-gen/bad-sym
