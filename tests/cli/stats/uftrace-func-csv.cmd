$KTF --stats=csv tests/fixtures/uftrace/ktf-strargs
