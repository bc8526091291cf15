# random
$KTF -c 3000.25 tests/fixtures/diff/050.formats < tests/fixtures/diff/050.bin
