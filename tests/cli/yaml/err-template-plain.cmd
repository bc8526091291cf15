# requires: yaml
$KTF tests/fixtures/yaml/err-template-plain.yaml < tests/fixtures/yaml/gen.kvmtrace
