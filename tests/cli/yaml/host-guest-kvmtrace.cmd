# requires: yaml
$KTF formats/host-guest.yaml < tests/fixtures/yaml/gen.kvmtrace
