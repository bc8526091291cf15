# random
$KTF -f tests/fixtures/diff/036.formats tests/fixtures/diff/036.bin
