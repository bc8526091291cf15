# --auto-args: specs from the .dbg file and from uftrace's list
$KTF tests/fixtures/uftrace/ktf-autoargs
