# equal-stamps
$KTF tests/fixtures/diff/062.formats < tests/fixtures/diff/062.bin
