# requires: yaml
$KTF tests/fixtures/yaml/err-too-many-args.yaml < tests/fixtures/yaml/gen.kvmtrace
