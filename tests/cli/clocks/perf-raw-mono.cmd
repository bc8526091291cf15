# issue 38: perf record -k monotonic_raw (the clock id in the attrs; the CLOCKID feature holds only the resolution, 1 ns as for mono) is not CLOCK_MONOTONIC: refused beside perf record -k mono
$KTF tests/cli/clocks/clock.formats tests/fixtures/clocks/sched-raw.data tests/fixtures/perf/kvm-mono.data
