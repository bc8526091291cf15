# requires: tracecmd yaml
# only kvm_pio, decoded; every other event skipped
$KTF formats/io-ports.yaml tests/fixtures/tracedat/host-kvm-v7.dat
