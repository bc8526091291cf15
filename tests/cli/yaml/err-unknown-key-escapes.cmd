# requires: yaml
# an unknown key after escapes in a double-quoted template: the caret is
# under its '%' on the line as written (\t, \u00e9 and \" are 10 bytes there)
$KTF tests/fixtures/yaml/err-unknown-key-escapes.yaml < tests/fixtures/yaml/gen.kvmtrace
