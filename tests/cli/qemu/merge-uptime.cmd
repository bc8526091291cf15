# requires: tracecmd
$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/fixtures/tracedat/clock-uptime.dat tests/fixtures/qemu/simple-mono.bin
