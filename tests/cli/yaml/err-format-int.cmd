# requires: yaml
$KTF tests/fixtures/yaml/err-format-int.yaml < tests/fixtures/yaml/gen.kvmtrace
