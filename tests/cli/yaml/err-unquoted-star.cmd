# requires: yaml
$KTF tests/fixtures/yaml/err-unquoted-star.yaml < tests/fixtures/yaml/gen.kvmtrace
