# requires: yaml
$KTF --stats -c 1000 formats/kvmtrace.yaml tests/fixtures/exits/exits-elf.kvmtrace
