# requires: yaml
$KTF tests/fixtures/yaml/err-format-null.yaml < tests/fixtures/yaml/gen.kvmtrace
