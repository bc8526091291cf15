$KTF --chrome tests/fixtures/sinks/strings-uftrace
