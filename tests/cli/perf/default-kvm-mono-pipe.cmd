# requires: tracecmd
# no rule file: what `perf script -F trace:comm,tid,cpu,time,event,trace`
# prints (contrib/perf-fixtures.sh made the file and its reference .out)
$KTF tests/fixtures/perf/kvm-mono-pipe.data | diff tests/fixtures/perf/kvm-mono-pipe.data.out - && echo same as perf script
