# requires: yaml
$KTF tests/fixtures/yaml/err-u64-pair.yaml < tests/fixtures/yaml/gen.kvmtrace
