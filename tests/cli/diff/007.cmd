# shipped-mhz-farg
$KTF -c 2400 -f formats/kvmtrace tests/fixtures/diff/007.bin
