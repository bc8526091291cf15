# %08X, %08x and %d as the 2008 tool (Python %) prints them
$KTF tests/cli/kvmtrace/hex8.formats < tests/fixtures/yaml/gen.kvmtrace
