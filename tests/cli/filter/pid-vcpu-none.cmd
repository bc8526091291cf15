# --pid lets no event through: --vcpu after it saw none, and says nothing
$KTF --pid 1 --vcpu 0 formats/kvmtrace tests/fixtures/kvmtrace/sample.bin
