# requires: yaml
$KTF tests/fixtures/yaml/err-unknown-enum.yaml < tests/fixtures/yaml/gen.kvmtrace
