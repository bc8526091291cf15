# --chrome on QEMU 7.2 log lines (TID@): one process for the input (its
# pid is not in the log), one track per vCPU, the other events on their
# thread's track; a log without TIDs: "no vCPU named" (issue 30)
$KTF --chrome tests/fixtures/qemu-log/kvm72.qlog | python3 tests/gen/check-chrome.py --summary -
$KTF --chrome tests/fixtures/qemu-log/kvm-iso.qlog | python3 tests/gen/check-chrome.py --summary -
