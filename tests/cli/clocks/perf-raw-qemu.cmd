# issue 38: perf record -k monotonic_raw beside a QEMU simple trace (CLOCK_MONOTONIC): refused, with the advice for a perf.data
$KTF tests/cli/clocks/clock.formats tests/fixtures/clocks/sched-raw.data tests/fixtures/qemu/simple-mono.bin
