# random
$KTF tests/fixtures/diff/059.formats tests/fixtures/diff/059.bin
