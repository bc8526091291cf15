# requires: yaml
$KTF tests/fixtures/yaml/err-bad-name.yaml < tests/fixtures/yaml/gen.kvmtrace
