# issue 38: perf.data beside a QEMU log (wall clock): the advice is perf's (-k realtime), not trace-cmd's
$KTF tests/cli/clocks/clock.formats tests/fixtures/perf/kvm.data tests/fixtures/qemu-log/kvm72.qlog
