# requires: tracecmd
# %(comm)s read straight from the reader's record (tc_field_at()) is the
# comm as the general path finds it at that point of the line: after
# %(info)s of a sched_switch, whose plugin registers the comms it names
# (class-comm.dat's pids have no saved comm: "<...>" before, "ls" after)
printf '%s\n' '* %(comm)s|%(info)s|%(comm)s' | $KTF -f /dev/stdin tests/fixtures/tracedat/class-comm.dat
