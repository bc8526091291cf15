# requires: tracecmd
# exit slices carry the reason, the guest RIP, its function and
# libtraceevent's text as args (issue 28, item 8)
$KTF --chrome --guest-syms tests/fixtures/exits/guest.kallsyms tests/fixtures/exits/host-exits.dat | python3 tests/gen/check-chrome.py --summary --expect-exits 300 --expect-exit-args reason,rip,symbol,info -
