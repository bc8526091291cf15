# QEMU's plugin: per-vCPU tasks, 4-column .sym, depths as written (from 1), as uftrace dump prints them
$KTF tests/fixtures/uftrace-gen/qemu
