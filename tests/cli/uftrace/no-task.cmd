$KTF tests/fixtures/uftrace-gen/no-task
