# requires: yaml
$KTF tests/fixtures/yaml/err-template.yaml < tests/fixtures/yaml/gen.kvmtrace
