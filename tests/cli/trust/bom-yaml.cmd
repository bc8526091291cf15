# requires: yaml
# a UTF-8 byte order mark at the top of a YAML rule file: accepted
$KTF tests/cli/trust/bom.yaml tests/fixtures/kvmtrace/random.bin | head -n 6
