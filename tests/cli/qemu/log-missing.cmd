# --qemu-log names a file without a probe: a missing one, or a directory,
# is a usage problem like any input named on the command line (exit 2; it
# was exit 1, bad data)
$KTF --qemu-events=tests/fixtures/qemu/trace-events --qemu-log tests/fixtures/qemu-log/missing.qlog; echo "status $?"
$KTF --qemu-events=tests/fixtures/qemu/trace-events --qemu-log tests/fixtures/qemu-log; echo "status $?"
