# requires: yaml
# args, u64 and enum (%s/%r the symbol, %d/%x the number), name, skip
$KTF tests/fixtures/yaml/names.yaml < tests/fixtures/yaml/gen.kvmtrace
