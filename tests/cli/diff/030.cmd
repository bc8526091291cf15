# random
$KTF -c 1 tests/fixtures/diff/030.formats < tests/fixtures/diff/030.bin
