# a host name with a quote, a comma and a tab: CSV quotes it, doubling the quote (RFC 4180)
$KTF --exits "--host=rack \"7\", row	3" -c 1000 tests/fixtures/kvmtrace/vm.kvmtrace.0
