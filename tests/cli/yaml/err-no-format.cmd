# requires: yaml
$KTF tests/fixtures/yaml/err-no-format.yaml < tests/fixtures/yaml/gen.kvmtrace
