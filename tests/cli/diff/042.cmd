# random
$KTF -f tests/fixtures/diff/042.formats tests/fixtures/diff/042.bin
