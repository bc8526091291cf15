$KTF -f tests/cli/uftrace/evpmu.formats tests/fixtures/uftrace/ktf-evpmu
