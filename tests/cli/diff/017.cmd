# only-rule0
$KTF tests/fixtures/diff/017.formats < tests/fixtures/diff/017.bin
