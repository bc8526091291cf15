# requires: tracecmd
# A trace.dat is opened in a child that goes on as the program while the
# first process waits (src/sources/tracedat/tracecmd-open.c). SIGTERM to the first
# process while the program waits for more kvmtrace records on standard
# input: both end, and the status is the signal's, as without the child.
# It waits for the events (the child is there; both are gone), polling at
# most 30 s for each, never a fixed time. Under memcheck the signal may
# come while the first process still waits for the child's verdict: it
# ends by the signal at once (the child by PR_SET_PDEATHSIG), and dash
# says "Terminated" as it reaps it in `wait`: that wait's stderr is not
# the program's.
w8() { i=0; while [ "$(pgrep -f "$d/guard-signal.dat" | wc -l)" "$1" "$2" ]; do i=$((i + 1)); [ $i -lt 600 ] || return 1; sleep 0.05; done; }; d=$(mktemp -d) && cp tests/fixtures/tracedat/host-kvm-v6.dat "$d/guard-signal.dat" && mkfifo "$d/in" && { { head -c 4096 tests/fixtures/kvmtrace/sample.bin; sleep 30; } > "$d/in" & w=$!; } && { $KTF "$d/guard-signal.dat" - < "$d/in" > /dev/null 2>&1 & k=$!; } && w8 -lt 2; n=$(pgrep -f "$d/guard-signal.dat" | wc -l); kill -TERM $k; wait $k 2>/dev/null; rc=$?; w8 -gt 0; left=$(pgrep -f "$d/guard-signal.dat" | wc -l); kill $w 2>/dev/null; rm -rf "$d"; echo "processes $n, status $rc, processes left $left"
