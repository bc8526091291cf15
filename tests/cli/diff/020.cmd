# no-final-newline
$KTF tests/fixtures/diff/020.formats < tests/fixtures/diff/020.bin
