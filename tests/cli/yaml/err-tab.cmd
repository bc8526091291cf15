# requires: yaml
$KTF tests/fixtures/yaml/err-tab.yaml < tests/fixtures/yaml/gen.kvmtrace
