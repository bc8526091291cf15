# no-rule0
$KTF -c 2400 tests/fixtures/diff/016.formats < tests/fixtures/diff/016.bin
