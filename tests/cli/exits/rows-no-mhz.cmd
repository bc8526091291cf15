# a TSC timeline without -c has no nanoseconds
$KTF --exits tests/fixtures/sinks/exits.kvmtrace
