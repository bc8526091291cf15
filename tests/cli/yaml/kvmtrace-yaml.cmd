# requires: yaml
$KTF formats/kvmtrace.yaml < tests/fixtures/yaml/gen.kvmtrace
