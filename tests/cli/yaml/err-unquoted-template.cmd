# requires: yaml
$KTF tests/fixtures/yaml/err-unquoted-template.yaml < tests/fixtures/yaml/gen.kvmtrace
