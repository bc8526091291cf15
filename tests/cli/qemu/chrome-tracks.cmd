# --chrome on a simple file of two QEMU processes: one Chrome process per
# QEMU pid, one track per vCPU the events name (cpu_index), the rest on
# "no vCPU named" (issue 30); tests/gen/check-chrome.py checks the names
$KTF --qemu-events=tests/fixtures/qemu/trace-events --chrome tests/fixtures/qemu/simple.bin | python3 tests/gen/check-chrome.py --summary -
