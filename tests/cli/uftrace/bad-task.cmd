$KTF tests/fixtures/uftrace-gen/bad-task
