# requires: yaml
$KTF tests/fixtures/yaml/err-deep.yaml < tests/fixtures/yaml/gen.kvmtrace
