# requires: yaml
$KTF tests/fixtures/yaml/err-match-float.yaml < tests/fixtures/yaml/gen.kvmtrace
