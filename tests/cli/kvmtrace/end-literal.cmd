# Lines whose last literal is 31, 32, 33, 64 bytes long, or the whole
# template (the newline in the last step's literal)
$KTF tests/cli/kvmtrace/end-literal.formats < tests/fixtures/yaml/gen.kvmtrace
