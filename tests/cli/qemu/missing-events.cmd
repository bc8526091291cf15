# A dictionary without two of the trace's events: their records are left
# out, one of them (qemu_test_disabled) and seven (qemu_test_text), and said so
$KTF --qemu-events=tests/cli/qemu/missing-two.trace-events tests/fixtures/qemu/simple.bin
