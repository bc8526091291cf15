# shipped
$KTF formats/kvmtrace < tests/fixtures/diff/001.bin
