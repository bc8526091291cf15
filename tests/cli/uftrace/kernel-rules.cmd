# requires: tracecmd
# merged through rules, kernel records are entry/exit events with a kallsyms symbol, the full address, a depth under the task's user frames and the duration rettime - calltime; task 5555 (no TID.dat, not listed) is left out as in uftrace report
$KTF -f tests/cli/uftrace/kernel.formats tests/fixtures/uftrace-gen/kernel
