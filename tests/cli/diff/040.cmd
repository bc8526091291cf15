# random
$KTF -c 1000 -f tests/fixtures/diff/040.formats tests/fixtures/diff/040.bin
