# a leading 0 is not octal: 09 is nine
$KTF --tsc-offset=09 --tsc-offset=x9 formats/kvmtrace tests/fixtures/kvmtrace/sample.bin
