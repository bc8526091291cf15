# requires: yaml
$KTF tests/fixtures/yaml/err-reserved-name.yaml < tests/fixtures/yaml/gen.kvmtrace
