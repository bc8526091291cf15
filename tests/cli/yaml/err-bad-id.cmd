# requires: yaml
$KTF tests/fixtures/yaml/err-bad-id.yaml < tests/fixtures/yaml/gen.kvmtrace
