# requires: tracecmd
# a sample whose print fmt libtraceevent crashes on (SIGFPE: a division by zero) among samples printed by hand, in the same round: the input stops at it as one event at a time would stop (the reader's batch ends after a sample whose text may be libtraceevent's). .out: what differs from the lines perf script (line-buffered) prints before its own SIGFPE: the crashing sample's fallback line
{ $KTF tests/fixtures/perf/gen-div0.data; echo "exit $?" >&2; } | diff tests/fixtures/perf/gen-div0.data.out -
