# duplicates
$KTF tests/fixtures/diff/018.formats < tests/fixtures/diff/018.bin
