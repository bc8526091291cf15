# random
$KTF tests/fixtures/diff/058.formats < tests/fixtures/diff/058.bin
