# random
$KTF -c 1 -f tests/fixtures/diff/033.formats tests/fixtures/diff/033.bin
