# builtin-be-input-mhz
$KTF -c 3.3 tests/fixtures/diff/006.bin
