# requires: yaml
$KTF tests/fixtures/yaml/err-empty.yaml < tests/fixtures/yaml/gen.kvmtrace
