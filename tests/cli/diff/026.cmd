# random
$KTF tests/fixtures/diff/026.formats tests/fixtures/diff/026.bin
