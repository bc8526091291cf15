# requires: yaml
$KTF tests/fixtures/yaml/err-name-not-string.yaml < tests/fixtures/yaml/gen.kvmtrace
