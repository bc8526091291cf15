# requires: yaml
$KTF tests/fixtures/yaml/err-unknown-field.yaml < tests/fixtures/yaml/gen.kvmtrace
