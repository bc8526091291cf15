# an input name with a comma: quoted (RFC 4180); a guest input as the host column too
$KTF --exits --guest tests/fixtures/sinks/comma,name.kvmtrace --tsc-offset 1000000000 -c 1000 tests/fixtures/sinks/exits.kvmtrace
