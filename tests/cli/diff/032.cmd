# random
$KTF -c 0.5 tests/fixtures/diff/032.formats < tests/fixtures/diff/032.bin
