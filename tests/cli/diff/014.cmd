# char
$KTF tests/fixtures/diff/014.formats < tests/fixtures/diff/014.bin
