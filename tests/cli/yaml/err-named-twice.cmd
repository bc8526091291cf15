# requires: yaml
$KTF tests/fixtures/yaml/err-named-twice.yaml < tests/fixtures/yaml/gen.kvmtrace
