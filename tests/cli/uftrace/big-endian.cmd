# the same events as qemu-default, written big-endian
$KTF tests/fixtures/uftrace-gen/big-endian
