# issue 34 item 18: -o /dev/stdout while standard output is appended to a
# file (>> log): the output goes to that descriptor as it is, after what
# the log held (it was truncated first)
d=$(mktemp -d) && echo first >"$d/log" && $KTF -o /dev/stdout formats/kvmtrace tests/fixtures/kvmtrace/sample.bin >>"$d/log" && $KTF formats/kvmtrace tests/fixtures/kvmtrace/sample.bin >"$d/ref" && { echo first; cat "$d/ref"; } | cmp - "$d/log" && echo appended; rc=$?; rm -rf "$d"; exit $rc
