# random
$KTF -f tests/fixtures/diff/048.formats tests/fixtures/diff/048.bin
