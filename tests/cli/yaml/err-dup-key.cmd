# requires: yaml
$KTF tests/fixtures/yaml/err-dup-key.yaml < tests/fixtures/yaml/gen.kvmtrace
