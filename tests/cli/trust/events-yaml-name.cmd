# requires: yaml
# --events matches the name: a YAML rule gives its events
$KTF --events=read formats/io-ports.yaml tests/fixtures/kvmtrace/random.bin
