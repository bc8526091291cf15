# requires: tracecmd
# issue 38: --clock=INPUT=ns takes an input as it is (no check of its clock); spans that overlap nowhere are then warned about
$KTF --clock=tests/fixtures/perf/kvm.data=ns tests/cli/clocks/clock.formats tests/fixtures/perf/kvm.data tests/fixtures/qemu/host-mono.dat | tail -1
