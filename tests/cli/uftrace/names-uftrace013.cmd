# issue 38: names uftrace 0.13 spells otherwise than libiberty (std::basic_ostream for So, operator(cast), thunks, Rust legacy impls "_<a..b as c..d>::f"); the .out is uftrace 0.13 dump -d of the fixture (tests/gen/gen-uftrace-names.py)
# requires: libiberty
$KTF tests/fixtures/uftrace-gen/names
