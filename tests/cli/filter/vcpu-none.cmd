# --vcpu that no event is on: nothing printed, and a warning at the end
# with the vCPUs the events were on (the ranges as merged: 7-9 and 12)
$KTF --vcpu 12,8-9,7 formats/kvmtrace tests/fixtures/sinks/exits.kvmtrace
