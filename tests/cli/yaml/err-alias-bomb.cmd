# requires: yaml
$KTF tests/fixtures/yaml/err-alias-bomb.yaml < tests/fixtures/yaml/gen.kvmtrace
