# requires: yaml
$KTF tests/fixtures/yaml/err-unknown-field-single-quoted.yaml < tests/fixtures/yaml/gen.kvmtrace
