# random
$KTF -c 1000 -f tests/fixtures/diff/045.formats tests/fixtures/diff/045.bin
