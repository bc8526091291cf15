# a record whose values disagree with its spec (a string claims 200 bytes):
# kept with the values its spec reads, as uftrace dump keeps it; what
# follows its values up to the next record found is skipped
$KTF tests/fixtures/uftrace-gen/bad-args
