# requires: tracecmd
# every track named for what it is (host CPU, task comm:tid, vCPU with its
# host thread, guest vCPU), sched_switch as the running task per CPU and
# irq/softirq handlers as slices, no empty process (issue 28, item 8);
# tests/gen/check-chrome.py checks the document and sums it up
$KTF --chrome -c 2400 tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-b7.dat 2>/dev/null | python3 tests/gen/check-chrome.py --summary -
