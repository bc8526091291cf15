# random
$KTF -f tests/fixtures/diff/054.formats tests/fixtures/diff/054.bin
