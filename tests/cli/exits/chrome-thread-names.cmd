# requires: tracecmd
# 18.9: thread names from the running task (common comm), not an event's own comm (sched_wakeup names the wakee)
$KTF --chrome -c 1000 tests/fixtures/tracedat/mixed-sched.dat | grep thread_name
