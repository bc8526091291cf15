$KTF -f tests/cli/uftrace/evdata.formats tests/fixtures/uftrace/ktf-evdata
