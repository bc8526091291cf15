# requires: tracecmd
# the host column: the node name of the UNAME option (trace.dat v7)
$KTF --exits=jsonl tests/fixtures/exits/host-b7.dat
