# 13.8: random ids and reasons; 4096 of each kept, the rest in one row
$KTF_BUILDDIR/tests/gen/gen-kvmtrace -n 100000 -u 60 -s 3 | $KTF --stats -c 1000 | grep -E "other|more than|^Events"
