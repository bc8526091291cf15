# requires: yaml
$KTF tests/fixtures/yaml/err-unknown-key.yaml < tests/fixtures/yaml/gen.kvmtrace
