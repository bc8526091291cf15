# requires: yaml
# formats/uftrace.yaml: the call tree of a recorded program, indented by
# depth through an enum
$KTF formats/uftrace.yaml tests/fixtures/uftrace/plain
