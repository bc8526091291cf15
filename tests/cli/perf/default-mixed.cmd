# requires: tracecmd
# no rule file: what `perf script -F trace:comm,tid,cpu,time,event,trace`
# prints (contrib/perf-fixtures.sh made the file and its reference .out)
$KTF tests/fixtures/perf/mixed.data | diff tests/fixtures/perf/mixed.data.out - && echo same as perf script
