# random
$KTF -f tests/fixtures/diff/043.formats tests/fixtures/diff/043.bin
