# tiny-mhz
$KTF -c 0.001 tests/fixtures/diff/021.formats < tests/fixtures/diff/021.bin
