# magic-plus-7
$KTF -f tests/fixtures/diff/009.formats tests/fixtures/diff/009.bin
