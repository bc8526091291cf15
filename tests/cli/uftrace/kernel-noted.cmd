# issue 38 (not done): the kernel-cpuN.dat files of uftrace record -k are not read; the run says so once, naming them (their records, 2 here, are in tests/fixtures/uftrace-gen/kernel.dump, uftrace 0.13's dump; the empty kernel-cpu1.dat is not counted)
$KTF tests/fixtures/uftrace-gen/kernel | diff tests/fixtures/uftrace-gen/kernel.dump - | sed -n "1,4p"
