# issue 28: a binary run where it was built, not installed, finds the source tree's formats/
# requires: yaml
unset KVMTRACE_FORMAT_PATH; $KTF --list-formats | sed "s|^$(pwd -P)/|SRCDIR/|" | head -3 && $KTF -f exit-latency tests/fixtures/exits/exits-elf.kvmtrace | head -3
