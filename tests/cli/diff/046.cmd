# random
$KTF -c 3000.25 tests/fixtures/diff/046.formats tests/fixtures/diff/046.bin
