# requires: yaml
# Some events go to a skip rule, the others match no rule: nothing printed,
# exit 0, and a warning that counts both
$KTF -f tests/fixtures/yaml/skip-and-unmatched.yaml tests/fixtures/kvmtrace/sample.bin
