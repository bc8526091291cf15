# the "*" rule has a key no kvmtrace event has: reported before the first
# line is printed (it was found only at the first event "*" took, after
# the VMEXIT and VMENTRY lines before it)
$KTF tests/cli/kvmtrace/glob-typo.formats tests/fixtures/kvmtrace/sample.bin
