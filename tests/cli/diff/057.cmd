# random
$KTF tests/fixtures/diff/057.formats < tests/fixtures/diff/057.bin
