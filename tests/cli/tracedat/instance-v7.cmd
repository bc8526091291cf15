# requires: tracecmd
# issue 35: a trace.dat recorded with `trace-cmd record -B ktf ... -B wake`
# (contrib/record-instance.sh; v7): its events are in two instance buffers,
# none in the top one. Every buffer is read, merged by time as trace-cmd
# report merges them, each line after its buffer's name (right-aligned to
# the longest); byte for byte trace-cmd report's output (it printed only
# cpus=2 before)
$KTF tests/fixtures/tracedat/instance-v7.dat | diff tests/fixtures/tracedat/instance-v7.dat.report - && echo same as trace-cmd report
