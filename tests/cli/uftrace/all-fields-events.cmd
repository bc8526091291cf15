$KTF -f tests/cli/uftrace/all.formats tests/fixtures/uftrace/events
