# random
$KTF tests/fixtures/diff/038.formats tests/fixtures/diff/038.bin
