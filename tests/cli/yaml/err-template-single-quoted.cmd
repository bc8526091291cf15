# requires: yaml
$KTF tests/fixtures/yaml/err-template-single-quoted.yaml < tests/fixtures/yaml/gen.kvmtrace
