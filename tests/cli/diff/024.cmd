# edges-float-exact
$KTF -c 0.001 tests/fixtures/diff/024.formats < tests/fixtures/diff/024.bin
