# builtin-mhz
$KTF -c 2394.5 < tests/fixtures/diff/004.bin
