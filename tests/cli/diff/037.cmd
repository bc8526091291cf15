# random
$KTF tests/fixtures/diff/037.formats < tests/fixtures/diff/037.bin
