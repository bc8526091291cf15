$KTF -f formats/kvmtrace tests/fixtures/uftrace-gen
