# requires: tracecmd
# perf record -k mono (its CLOCKID feature) shares CLOCK_MONOTONIC with a QEMU simple trace: one timeline, no --clock needed
$KTF tests/cli/perf/source.formats tests/fixtures/perf/kvm-mono.data tests/fixtures/qemu/simple-mono.bin | sed -n "1,3p;\$p"
