# requires: yaml
$KTF tests/fixtures/yaml/err-no-events.yaml < tests/fixtures/yaml/gen.kvmtrace
