# an argument without a type: the column is the argument's
$KTF --qemu-events=tests/cli/qemu/broken-arg.trace-events --qemu-log tests/fixtures/qemu-log/kvm72.qlog
