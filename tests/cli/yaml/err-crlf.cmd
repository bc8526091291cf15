# requires: yaml
$KTF tests/fixtures/yaml/err-crlf.yaml < tests/fixtures/yaml/gen.kvmtrace
