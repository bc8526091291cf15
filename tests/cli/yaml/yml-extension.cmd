# requires: yaml
# .yml is YAML too
$KTF tests/fixtures/yaml/short.yml < tests/fixtures/yaml/gen.kvmtrace
