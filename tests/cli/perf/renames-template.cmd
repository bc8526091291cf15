# requires: tracecmd
# the same renamed threads through a template (%(comm)s %(tid)d %(info)s of every event): what perf script -F trace:comm,tid,trace prints
$KTF -f tests/cli/perf/renames.formats tests/fixtures/perf/gen-renames.data 2>/dev/null | diff tests/fixtures/perf/gen-renames.data.tid.out - && echo same as perf script
