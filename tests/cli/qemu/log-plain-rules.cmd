# a log without stamps after a rule file: an input (it was "this looks
# like a rule file"); its arguments read back by name
$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/cli/qemu/log.formats tests/fixtures/qemu/plain.qlog
