# random
$KTF -f tests/fixtures/diff/041.formats tests/fixtures/diff/041.bin
