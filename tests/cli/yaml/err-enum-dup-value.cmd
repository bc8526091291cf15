# requires: yaml
$KTF tests/fixtures/yaml/err-enum-dup-value.yaml < tests/fixtures/yaml/gen.kvmtrace
