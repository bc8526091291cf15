# requires: libiberty
# C++: operator new, pointers (&symbol), structs returned by value
$KTF -f tests/cli/uftrace/values.formats tests/fixtures/uftrace/ktf-cxx
