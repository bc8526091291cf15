# a forked child starts inside calls; its exec starts a new stack
$KTF tests/fixtures/uftrace/ktf-forkexec
