# requires: tracecmd
# a guest's tasks each on a track named "guest task comm:tid"
$KTF --chrome -c 2400 tests/fixtures/hostguest/orphan7.dat 2>/dev/null | python3 tests/gen/check-chrome.py --summary -
