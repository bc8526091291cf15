# memo-values
$KTF tests/fixtures/diff/065.formats < tests/fixtures/diff/065.bin
