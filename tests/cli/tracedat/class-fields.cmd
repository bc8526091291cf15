# requires: tracecmd
# the fields of the classes: a partly filled caller[8] is its entries to
# the record's end; a path without NUL in its length runs to the NUL after
# it; comms learned from sched_switch/sched_wakeup without printing them
for c in stack nul comm; do $KTF -f tests/cli/tracedat/class.formats tests/fixtures/tracedat/class-$c.dat || exit; done
