# requires: tracecmd
# --tsc-offset with only a self-shifted guest to apply to
$KTF --tsc-offset=auto tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-b7.dat
