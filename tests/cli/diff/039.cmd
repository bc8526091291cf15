# random
$KTF -f tests/fixtures/diff/039.formats tests/fixtures/diff/039.bin
