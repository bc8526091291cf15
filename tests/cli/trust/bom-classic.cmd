# a UTF-8 byte order mark before the first rule (an editor's): the first
# rule (VMEXIT) still matches; the lines are those of the file without it
$KTF tests/cli/trust/bom.formats tests/fixtures/kvmtrace/random.bin | head -n 6
