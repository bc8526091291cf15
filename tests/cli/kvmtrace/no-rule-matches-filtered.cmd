# The same after --events=VMEXIT: the warning counts the events the
# filter let through, 62 of 186
$KTF -f tests/cli/kvmtrace/no-rule-matches.formats --events=VMEXIT < tests/fixtures/kvmtrace/sample.bin
