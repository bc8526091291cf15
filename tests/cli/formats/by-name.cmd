# requires: tracecmd yaml
KVMTRACE_FORMAT_PATH=/nonexistent:formats $KTF -f io-ports tests/fixtures/tracedat/host-kvm-v7.dat
