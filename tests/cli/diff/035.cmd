# random
$KTF tests/fixtures/diff/035.formats < tests/fixtures/diff/035.bin
