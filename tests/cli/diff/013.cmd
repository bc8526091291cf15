# cut-in-data
$KTF tests/fixtures/diff/013.formats < tests/fixtures/diff/013.bin
