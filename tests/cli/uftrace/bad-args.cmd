# a record whose values disagree with its spec: only it is skipped
$KTF tests/fixtures/uftrace-gen/bad-args
