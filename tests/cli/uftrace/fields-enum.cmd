$KTF -f tests/cli/uftrace/enum.formats tests/fixtures/uftrace/ktf-enum
