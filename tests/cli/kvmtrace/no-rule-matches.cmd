# A rule file none of whose rules matches an event of the input: nothing
# printed, exit 0, and a warning naming the rule file, how many events
# went without a rule and the first of them
$KTF -f tests/cli/kvmtrace/no-rule-matches.formats tests/fixtures/kvmtrace/sample.bin
