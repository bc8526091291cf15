# requires: root
# issue 34 item 19, not root: user 65534 runs -o on root's file (mode
# 664, group 65534) in a directory of its own: the temporary cannot be
# given root as owner, so the file is written in place, keeping owner,
# group and mode (it became 65534's). The binary and inputs are copied
# where that user can read them (not under valgrind: its logs)
d=$(mktemp -d) && chmod 755 "$d" && mkdir "$d/own" && chown 65534:65534 "$d/own" && cp "${KTF_VALGRIND_BIN:-$KTF}" "$d/ktf" && cp formats/kvmtrace tests/fixtures/kvmtrace/sample.bin "$d" && echo old >"$d/own/f" && chown 0:65534 "$d/own/f" && chmod 664 "$d/own/f" && (cd "$d" && setpriv --reuid=65534 --regid=65534 --clear-groups ./ktf -o own/f kvmtrace sample.bin) && $KTF formats/kvmtrace tests/fixtures/kvmtrace/sample.bin | cmp - "$d/own/f" && stat -c '%u:%g %a' "$d/own/f" && ls -A "$d/own"; rc=$?; rm -rf "$d"; exit $rc
