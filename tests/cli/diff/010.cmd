# magic-only
$KTF tests/fixtures/diff/010.formats < tests/fixtures/diff/010.bin
