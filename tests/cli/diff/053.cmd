# random
$KTF -c 2394.5 tests/fixtures/diff/053.formats tests/fixtures/diff/053.bin
