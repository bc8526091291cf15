# requires: yaml
$KTF tests/fixtures/yaml/err-two-documents.yaml < tests/fixtures/yaml/gen.kvmtrace
