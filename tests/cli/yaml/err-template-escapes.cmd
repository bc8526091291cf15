# requires: yaml
$KTF tests/fixtures/yaml/err-template-escapes.yaml < tests/fixtures/yaml/gen.kvmtrace
