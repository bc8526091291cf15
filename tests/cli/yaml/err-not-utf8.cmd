# requires: yaml
$KTF tests/fixtures/yaml/err-not-utf8.yaml < tests/fixtures/yaml/gen.kvmtrace
