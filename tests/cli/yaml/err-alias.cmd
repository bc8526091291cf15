# requires: yaml
$KTF tests/fixtures/yaml/err-alias.yaml < tests/fixtures/yaml/gen.kvmtrace
