# The first entry and the first exit of the sample alone: the entry had no
# exit before it, the exit no entry after it; a warning says both
$KTF --stats --time-range 7263327256666~7263327322202 tests/fixtures/kvmtrace/sample.bin
