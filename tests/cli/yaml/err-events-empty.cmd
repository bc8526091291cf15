# requires: yaml
$KTF tests/fixtures/yaml/err-events-empty.yaml < tests/fixtures/yaml/gen.kvmtrace
