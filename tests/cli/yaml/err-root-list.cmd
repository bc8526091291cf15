# requires: yaml
$KTF tests/fixtures/yaml/err-root-list.yaml < tests/fixtures/yaml/gen.kvmtrace
