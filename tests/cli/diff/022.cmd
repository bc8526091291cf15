# edges-int
$KTF tests/fixtures/diff/022.formats < tests/fixtures/diff/022.bin
