# requires: tracecmd
# --chrome with the kernel's trace.dat and QEMU's simple file on one
# timeline: the kernel's tasks in the host process, QEMU's in its own
$KTF --qemu-events=tests/fixtures/qemu/trace-events --chrome tests/fixtures/qemu/host-mono.dat tests/fixtures/qemu/simple-mono.bin | python3 tests/gen/check-chrome.py --summary -
