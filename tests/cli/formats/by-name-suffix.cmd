# requires: tracecmd yaml
KVMTRACE_FORMAT_PATH=formats $KTF -f io-ports.yaml tests/fixtures/tracedat/host-kvm-v7.dat
