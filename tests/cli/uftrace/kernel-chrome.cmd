# requires: tracecmd
# --chrome: kernel functions nest in their task's slices (ph B/E), names from kallsyms
$KTF --chrome tests/fixtures/uftrace-gen/kernel
