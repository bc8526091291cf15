# be-magic-only
$KTF tests/fixtures/diff/011.formats tests/fixtures/diff/011.bin
