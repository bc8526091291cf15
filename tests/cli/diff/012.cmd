# cut-before-tsc
$KTF -f tests/fixtures/diff/012.formats tests/fixtures/diff/012.bin
