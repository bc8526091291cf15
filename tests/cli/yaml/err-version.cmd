# requires: yaml
$KTF tests/fixtures/yaml/err-version.yaml < tests/fixtures/yaml/gen.kvmtrace
