# random
$KTF tests/fixtures/diff/049.formats tests/fixtures/diff/049.bin
