# typeerror
$KTF -c 1000 -f tests/fixtures/diff/015.formats tests/fixtures/diff/015.bin
