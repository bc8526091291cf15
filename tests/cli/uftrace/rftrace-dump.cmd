# issue 38: rftrace writes depth 0 in every record; the default output prints the stored depth as uftrace dump does (the .out is uftrace 0.13 dump -d of the fixture); the computed depth stays the key depth
$KTF tests/fixtures/uftrace-gen/rftrace
