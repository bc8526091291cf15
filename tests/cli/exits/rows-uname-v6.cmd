# requires: tracecmd
# the host column: the node name of the UNAME option (trace.dat v6)
$KTF --exits tests/fixtures/exits/host-a.dat
