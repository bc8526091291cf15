# uftrace calls as slices (B/E) on "task comm:tid" tracks
$KTF --chrome tests/fixtures/uftrace-gen/synth | python3 tests/gen/check-chrome.py --summary -
