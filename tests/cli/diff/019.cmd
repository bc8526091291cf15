# crlf
$KTF tests/fixtures/diff/019.formats tests/fixtures/diff/019.bin
