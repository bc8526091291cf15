# requires: yaml
$KTF tests/fixtures/yaml/err-enum-symbol.yaml < tests/fixtures/yaml/gen.kvmtrace
