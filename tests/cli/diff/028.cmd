# random
$KTF -c 1 -f tests/fixtures/diff/028.formats tests/fixtures/diff/028.bin
