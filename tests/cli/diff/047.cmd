# random
$KTF -f tests/fixtures/diff/047.formats tests/fixtures/diff/047.bin
