# digit-carries-shipped
$KTF formats/kvmtrace < tests/fixtures/diff/064.bin
