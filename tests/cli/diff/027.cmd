# random
$KTF -c 3.3 tests/fixtures/diff/027.formats < tests/fixtures/diff/027.bin
