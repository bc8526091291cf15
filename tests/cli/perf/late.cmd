# requires: tracecmd
# a sample stamped before what the last FINISHED_ROUND let out: perf queues it all the same and prints it at the next flush, after later samples (a step back in time); the same order here, and the count perf script warns of ("1 out of order events recorded") said on stderr
$KTF tests/fixtures/perf/gen-late.data | diff tests/fixtures/perf/gen-late.data.out - && echo same as perf script
