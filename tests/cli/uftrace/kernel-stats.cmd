# requires: tracecmd
# --stats counts kernel functions as uftrace report --kernel-full does
$KTF --stats tests/fixtures/uftrace-gen/kernel
