# a trace-events file that cannot be read is a usage problem found before
# any output: exit 2, the file, line and column of what is wrong (issue 30;
# it was exit 1 with the line only)
$KTF --qemu-events=tests/cli/qemu/broken.trace-events tests/fixtures/qemu/simple.bin
