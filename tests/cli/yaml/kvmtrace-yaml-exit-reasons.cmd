# requires: yaml
# the exit reason tables of formats/kvmtrace.yaml, printed with %(exitcode)s:
# Intel VT-x as shipped, then AMD-V (svm_exit_reason)
t=$(mktemp -d) || exit 99
sed 's/0x%(exitcode)08x/%(exitcode)s/' formats/kvmtrace.yaml > "$t/vmx.yaml"
sed 's/exitcode: vmx_exit_reason/exitcode: svm_exit_reason/' "$t/vmx.yaml" > "$t/svm.yaml"
$KTF "$t/vmx.yaml" tests/fixtures/yaml/exits.kvmtrace && $KTF "$t/svm.yaml" tests/fixtures/yaml/exits.kvmtrace; rc=$?
rm -rf "$t"; exit $rc
