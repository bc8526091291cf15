# requires: yaml
$KTF tests/fixtures/yaml/err-enum-negative.yaml < tests/fixtures/yaml/gen.kvmtrace
