# requires: yaml
$KTF tests/fixtures/yaml/err-args-not-list.yaml < tests/fixtures/yaml/gen.kvmtrace
