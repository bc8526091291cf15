# random
$KTF tests/fixtures/diff/056.formats < tests/fixtures/diff/056.bin
