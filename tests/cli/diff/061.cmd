# sweep
$KTF tests/fixtures/diff/061.formats < tests/fixtures/diff/061.bin
