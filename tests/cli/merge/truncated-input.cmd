# two kvmtrace inputs merged (read one event ahead), the first cut short:
# every good event of both, in time order (checked against the two run
# alone, merged by time with Python), then the error and status 1
$KTF -f formats/kvmtrace tests/fixtures/kvmtrace/truncated.bin tests/fixtures/kvmtrace/sample-be.bin
