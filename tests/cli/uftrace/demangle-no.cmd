# requires: libiberty
$KTF --demangle=no -f tests/cli/uftrace/names.formats tests/fixtures/uftrace/ktf-rust-v0
