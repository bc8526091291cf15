# requires: tracecmd
# a GUEST option with an empty name is one VM, named by its trace id, not
# one VM per vCPU thread (issue 28, item 5)
$KTF --stats --stats-top 3 tests/fixtures/exits/host-exits-anon.dat
