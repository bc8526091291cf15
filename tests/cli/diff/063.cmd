# equal-stamps-shipped
$KTF formats/kvmtrace < tests/fixtures/diff/063.bin
