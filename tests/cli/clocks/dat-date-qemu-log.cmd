# requires: tracecmd
# issue 38: a trace.dat with a DATE offset (trace-cmd record --date; tests/gen/gen-tracedat-date.py) is on the wall clock: it merges with a QEMU log (wall-clock stamps) without --clock, and their spans overlap (no warning)
$KTF tests/cli/clocks/clock.formats tests/fixtures/clocks/host-date.dat tests/fixtures/qemu-log/kvm72.qlog | awk '{ print $2 }' | uniq -c
