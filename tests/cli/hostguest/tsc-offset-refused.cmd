# requires: tracecmd
# a guest whose TIME_SHIFT libtracecmd applies: no second offset
$KTF tests/fixtures/hostguest/host7.dat --guest tests/fixtures/hostguest/guest-b7.dat --tsc-offset 5
