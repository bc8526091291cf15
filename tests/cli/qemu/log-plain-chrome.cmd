# cpu_index -1 (DMA, MSI outside a vCPU) names no vCPU: those events go on
# "no vCPU named", not on a track "vCPU 4294967295"
$KTF --qemu-events=tests/fixtures/qemu/trace-events --chrome tests/fixtures/qemu/plain.qlog 2>/dev/null | python3 tests/gen/check-chrome.py --summary -
