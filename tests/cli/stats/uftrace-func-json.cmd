$KTF --stats=json tests/fixtures/uftrace/ktf-statics
