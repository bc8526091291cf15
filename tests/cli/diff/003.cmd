# builtin
$KTF < tests/fixtures/diff/003.bin
