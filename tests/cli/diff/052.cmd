# random
$KTF -c 2666.666 tests/fixtures/diff/052.formats < tests/fixtures/diff/052.bin
