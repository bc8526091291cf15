# requires: tracecmd
# a process per VM named as GUEST names it; host vCPU threads and the guest's vCPU track under it
$KTF --chrome -c 2400 tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-b7.dat 2>/dev/null | grep -E '"(process|thread)_(name|sort_index)"'
