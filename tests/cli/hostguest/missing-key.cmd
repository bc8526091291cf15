# requires: tracecmd
# vcpu and vm exist only for the threads the GUEST option names: the other
# events print them empty (in their width) and one warning per key says how
# many (issue 28, item 4)
$KTF tests/cli/hostguest/vcpu-some.formats --time-range 7270007400000~7270010250000 tests/fixtures/hostguest/host7.dat
