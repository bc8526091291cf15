# QEMU's plugin: per-vCPU tasks, 4-column .sym, depths from our own stack
$KTF tests/fixtures/uftrace-gen/qemu
