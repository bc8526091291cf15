# requires: tracecmd
# keys.out: written by tests/gen/gen-hostguest.py from the GUEST table and
# the recordings it wrote the pairs from
$KTF tests/cli/hostguest/keys.formats tests/fixtures/hostguest/host7.dat tests/fixtures/hostguest/guest-a6.dat tests/fixtures/hostguest/guest-b7.dat
