# perf events: sched-out to sched-in as a linux:schedule slice, as uftrace dump --chrome
$KTF --chrome tests/fixtures/uftrace/ktf-strargs
