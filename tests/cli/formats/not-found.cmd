# a directory of the path holds no such format: the loader names it
KVMTRACE_FORMAT_PATH=formats $KTF -f io-portz tests/fixtures/kvmtrace/sample.bin
