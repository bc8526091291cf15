# tiny-3-bytes
$KTF tests/fixtures/diff/008.formats < tests/fixtures/diff/008.bin
