# requires: tracecmd
# no rule matches: every event as `trace-cmd report` prints it. The fixture
# (raw_syscalls:sys_exit, sched_process_exec/fork around tinyguest and a
# failing ls and cat) was made with: contrib/record-host.sh -n 3
# -e raw_syscalls:sys_exit -e sched:sched_process_exec
# -e sched:sched_process_fork -W 'ls /nonexistent-ktf; cat /nonexistent-ktf2; true'
$KTF tests/fixtures/tracedat/tc-syscalls.dat | diff tests/fixtures/tracedat/tc-syscalls.dat.report - && echo same as trace-cmd report
