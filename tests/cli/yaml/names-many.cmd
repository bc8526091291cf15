# requires: yaml
# names.yaml with 27 names in its rule (hashed, not searched in turn): the same output
$KTF tests/fixtures/yaml/names-many.yaml < tests/fixtures/yaml/gen.kvmtrace
