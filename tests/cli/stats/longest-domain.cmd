# the longest exits, every one of them (--stats-top), the guest's own exit among the host's: its domain guest, its start on the host timeline (csv, the table alone)
$KTF --stats=csv --stats-top=200 -c 1000 --guest tests/fixtures/sinks/guest.kvmtrace --tsc-offset 1000000000 tests/fixtures/sinks/exits.kvmtrace | sed -n '/^# longest_exits/,/^$/p'
