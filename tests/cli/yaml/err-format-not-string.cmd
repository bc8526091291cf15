# requires: yaml
$KTF tests/fixtures/yaml/err-format-not-string.yaml < tests/fixtures/yaml/gen.kvmtrace
