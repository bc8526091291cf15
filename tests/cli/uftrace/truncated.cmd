$KTF tests/fixtures/uftrace-gen/truncated
