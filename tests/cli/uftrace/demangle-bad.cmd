$KTF --demangle=maybe tests/fixtures/uftrace/ktf-cxx
