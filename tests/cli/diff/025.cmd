# random
$KTF -c 1 tests/fixtures/diff/025.formats < tests/fixtures/diff/025.bin
