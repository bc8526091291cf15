# issue 34 item 18: -o /dev/fd/3 with 3>>log: descriptor 3 as it is,
# appended to (no temporary, no rename)
d=$(mktemp -d) && echo first >"$d/log" && $KTF -o /dev/fd/3 formats/kvmtrace tests/fixtures/kvmtrace/sample.bin 3>>"$d/log" && $KTF formats/kvmtrace tests/fixtures/kvmtrace/sample.bin >"$d/ref" && { echo first; cat "$d/ref"; } | cmp - "$d/log" && ls -A "$d"; rc=$?; rm -rf "$d"; exit $rc
