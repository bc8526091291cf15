# requires: tracecmd
# perf.data on perf's own clock (no -k) with a QEMU simple trace (CLOCK_MONOTONIC): refused, with what to record
$KTF tests/cli/perf/source.formats tests/fixtures/perf/kvm.data tests/fixtures/qemu/simple-mono.bin
