$KTF tests/fixtures/uftrace/events
