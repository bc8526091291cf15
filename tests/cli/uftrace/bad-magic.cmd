# the good records of both tasks, then the problem
$KTF tests/fixtures/uftrace-gen/bad-magic
