# requires: yaml
$KTF tests/fixtures/yaml/err-skip-and-format.yaml < tests/fixtures/yaml/gen.kvmtrace
