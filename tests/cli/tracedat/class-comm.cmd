# requires: tracecmd
# tests/gen/gen-tracedat-classes.py comm (see there): as `trace-cmd report`
# pids without saved comms: named from sched_switch/sched_wakeup as read
# prints it (its reference class-comm.dat.report, header line included)
$KTF tests/fixtures/tracedat/class-comm.dat | diff tests/fixtures/tracedat/class-comm.dat.report - && echo same as trace-cmd report
