# requires: yaml
$KTF formats/io-ports.yaml < tests/fixtures/yaml/gen.kvmtrace
