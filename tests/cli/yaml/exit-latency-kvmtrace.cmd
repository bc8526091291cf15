# requires: yaml
$KTF formats/exit-latency.yaml < tests/fixtures/yaml/gen.kvmtrace
