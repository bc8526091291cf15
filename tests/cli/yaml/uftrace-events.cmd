# requires: yaml
# uftrace events (read:proc/statm, SDT probes) among the calls
$KTF formats/uftrace.yaml tests/fixtures/uftrace/events
