# requires: yaml
$KTF tests/fixtures/yaml/err-template-block.yaml < tests/fixtures/yaml/gen.kvmtrace
