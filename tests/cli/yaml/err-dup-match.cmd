# requires: yaml
$KTF tests/fixtures/yaml/err-dup-match.yaml < tests/fixtures/yaml/gen.kvmtrace
