# requires: root
# issue 34 item 19: as root, -o over another user's file (65534:65534,
# mode 640): replaced with the new output, keeping its owner, group and
# mode (the temporary gets them before the run), nothing left beside it
d=$(mktemp -d) && echo old >"$d/out" && chown 65534:65534 "$d/out" && chmod 640 "$d/out" && $KTF -o "$d/out" formats/kvmtrace tests/fixtures/kvmtrace/sample.bin && $KTF formats/kvmtrace tests/fixtures/kvmtrace/sample.bin | cmp - "$d/out" && stat -c '%u:%g %a' "$d/out" && ls -A "$d"; rc=$?; rm -rf "$d"; exit $rc
