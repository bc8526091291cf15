# requires: tracecmd
# issue 34 item 17: tests/gen/gen-tracedat-overread.py past: tail_load's
# `char load[0]` ("the rest of the record") starts at byte 60 of a record
# of 40 (trace-cmd report dies of SIGBUS there): said, printed from a copy
# padded with zeros (an empty load), every other record printed
d=$(mktemp -d) && python3 tests/gen/gen-tracedat-overread.py past >"$d/past.dat" && cd "$d" && $KTF past.dat; rc=$?; rm -rf "$d"; exit $rc
