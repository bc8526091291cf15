# requires: yaml
$KTF tests/fixtures/yaml/err-template-multiline.yaml < tests/fixtures/yaml/gen.kvmtrace
