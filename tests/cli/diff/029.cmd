# random
$KTF -c 0.5 tests/fixtures/diff/029.formats tests/fixtures/diff/029.bin
