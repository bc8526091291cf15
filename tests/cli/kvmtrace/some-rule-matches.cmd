# A rule file that matches some events (IO_WRITE) and not others: those
# print, the others are left out without a word (the 2008 tool's way of
# picking events)
$KTF -f tests/cli/kvmtrace/some-rule-matches.formats tests/fixtures/kvmtrace/sample.bin
