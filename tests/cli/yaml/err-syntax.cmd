# requires: yaml
$KTF tests/fixtures/yaml/err-syntax.yaml < tests/fixtures/yaml/gen.kvmtrace
