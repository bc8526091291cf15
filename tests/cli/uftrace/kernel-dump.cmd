# requires: tracecmd
# kernel records (uftrace record -k) as uftrace 0.13 dumps them: a time extend, missed events (3 and unknown), a missing kernel-cpu2.dat renumbering kernel-cpu3.dat, kallsyms names, a task without TID.dat (tests/gen/gen-uftrace-kernel.py)
$KTF tests/fixtures/uftrace-gen/kernel | diff tests/fixtures/uftrace-gen/kernel.dump - && echo same
