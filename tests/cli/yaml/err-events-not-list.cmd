# requires: yaml
$KTF tests/fixtures/yaml/err-events-not-list.yaml < tests/fixtures/yaml/gen.kvmtrace
