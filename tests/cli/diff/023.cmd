# edges-float
$KTF -c 1 tests/fixtures/diff/023.formats < tests/fixtures/diff/023.bin
