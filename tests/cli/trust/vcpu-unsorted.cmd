# ranges in any order, overlapping: as --vcpu=1-3
$KTF --vcpu=3,2-3,1,2 formats/kvmtrace tests/fixtures/kvmtrace/random.bin
