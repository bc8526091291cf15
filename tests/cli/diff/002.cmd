# shipped-be-truncated
$KTF -f formats/kvmtrace tests/fixtures/diff/002.bin
