# requires: tracecmd
# an event format libtraceevent crashes on while parsing it (so does perf
# script): tried in a child process first, refused with the reason
$KTF tests/fixtures/perf/gen-crash.data
