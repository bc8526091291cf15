# requires: yaml
$KTF tests/fixtures/yaml/err-skip-not-bool.yaml < tests/fixtures/yaml/gen.kvmtrace
