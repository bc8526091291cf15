# random
$KTF -c 2394.5 tests/fixtures/diff/051.formats < tests/fixtures/diff/051.bin
