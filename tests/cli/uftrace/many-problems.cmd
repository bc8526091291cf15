# problems in two inputs: each input reports its own after its good events
$KTF tests/fixtures/uftrace-gen/bad-task tests/fixtures/uftrace-gen/bad-magic
