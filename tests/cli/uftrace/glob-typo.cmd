# no uftrace record type (entry, exit, event, lost) has the key 'symbl'
# of the glob rule: reported before the first line (the linux:task-name
# events that "*" takes come first, and were printed before the error)
$KTF tests/cli/uftrace/glob-typo.formats tests/fixtures/uftrace/plain
