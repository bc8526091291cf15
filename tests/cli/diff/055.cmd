# random
$KTF -c 1000 -f tests/fixtures/diff/055.formats tests/fixtures/diff/055.bin
