# a log without stamps (-D FILE alone, every qemu-user log) given alone is
# recognised by its first line's event name and read back (it was taken
# for a rule file: nothing printed, exit 0), with --qemu-events after it,
# and on standard input (tests/gen/gen-qemu-simple.py)
$KTF --qemu-events=tests/fixtures/qemu/trace-events tests/fixtures/qemu/plain.qlog
$KTF tests/fixtures/qemu/plain.qlog --qemu-events=tests/fixtures/qemu/trace-events | tail -n 2
$KTF --qemu-events=tests/fixtures/qemu/trace-events < tests/fixtures/qemu/plain.qlog | head -n 2
