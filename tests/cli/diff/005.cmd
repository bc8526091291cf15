# builtin-magic-input-truncated
$KTF tests/fixtures/diff/005.bin
