# random
$KTF tests/fixtures/diff/044.formats tests/fixtures/diff/044.bin
