# requires: root
# issue 34 item 20: user 65534 runs -o on root's world-writable file in a
# sticky directory (as in /tmp): the rename would be refused at the end
# (the output was thrown away, exit 1); it is written in place instead,
# owner and mode kept. The binary and its inputs are copied where that
# user can read them (not under valgrind: its logs are not writable)
d=$(mktemp -d) && chmod 755 "$d" && mkdir -m 1777 "$d/tmp" && cp "${KTF_VALGRIND_BIN:-$KTF}" "$d/ktf" && cp formats/kvmtrace tests/fixtures/kvmtrace/sample.bin "$d" && echo old >"$d/tmp/f" && chmod 666 "$d/tmp/f" && (cd "$d" && setpriv --reuid=65534 --regid=65534 --clear-groups ./ktf -o tmp/f kvmtrace sample.bin) && $KTF formats/kvmtrace tests/fixtures/kvmtrace/sample.bin | cmp - "$d/tmp/f" && stat -c '%u:%g %a' "$d/tmp/f" && ls -A "$d/tmp"; rc=$?; rm -rf "$d"; exit $rc
