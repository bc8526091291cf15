$KTF tests/fixtures/uftrace-gen/no-argspec
