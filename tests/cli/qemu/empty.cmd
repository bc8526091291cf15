# an empty file given alone is taken for the rule file and said to be
# empty (it was "no rules"); among inputs it is said to be empty
$KTF tests/fixtures/qemu/empty.qlog; echo "status $?"
$KTF formats/kvmtrace tests/fixtures/qemu/empty.qlog tests/fixtures/kvmtrace/sample.bin | head -n 1; echo "status $?"
