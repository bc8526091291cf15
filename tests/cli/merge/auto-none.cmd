$KTF -f formats/kvmtrace --guest tests/fixtures/tracedat/guest.kvmtrace --tsc-offset auto tests/fixtures/kvmtrace/sample.bin
