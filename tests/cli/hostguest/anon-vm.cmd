# requires: tracecmd
# a GUEST option with an empty name: the VM is named by its trace id, in
# the alignment report (never "VM ;") and as one Chrome process (issue 28,
# item 5)
$KTF --chrome -c 2400 tests/fixtures/hostguest/host7-anon.dat tests/fixtures/hostguest/guest-b7.dat | grep '"process_name"'
