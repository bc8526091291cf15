# requires: yaml
$KTF tests/fixtures/yaml/err-unknown-top-key.yaml < tests/fixtures/yaml/gen.kvmtrace
