# random
$KTF tests/fixtures/diff/060.formats tests/fixtures/diff/060.bin
