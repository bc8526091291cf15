# a name with a slash is a path, never searched
KVMTRACE_FORMAT_PATH=formats $KTF -f ./io-ports tests/fixtures/kvmtrace/sample.bin
