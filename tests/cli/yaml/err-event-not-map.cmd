# requires: yaml
$KTF tests/fixtures/yaml/err-event-not-map.yaml < tests/fixtures/yaml/gen.kvmtrace
