# random
$KTF tests/fixtures/diff/031.formats < tests/fixtures/diff/031.bin
