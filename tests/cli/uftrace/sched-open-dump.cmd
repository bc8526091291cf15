# issue 38: a recording whose tasks end switched out prints as uftrace dump does (the fixture's .dump; tests/gen/gen-uftrace-schedopen.py)
$KTF tests/fixtures/uftrace-gen/sched-open | diff tests/fixtures/uftrace-gen/sched-open.dump - && echo same as uftrace dump
