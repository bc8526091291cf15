# random
$KTF -c 1000 tests/fixtures/diff/034.formats < tests/fixtures/diff/034.bin
