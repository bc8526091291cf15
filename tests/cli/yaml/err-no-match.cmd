# requires: yaml
$KTF tests/fixtures/yaml/err-no-match.yaml < tests/fixtures/yaml/gen.kvmtrace
