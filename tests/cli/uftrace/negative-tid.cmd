# a task whose tid reads as negative (ktf-lost with tid 18202 made -7):
# %(tid)d takes the general path for the sign, as Python prints '%d' % -7
d=$(mktemp -d) && cp -r tests/fixtures/uftrace/ktf-lost "$d/neg" && mv "$d/neg/18202.dat" "$d/neg/-7.dat" && LC_ALL=C sed -i 's/tid=18202/tid=-7/' "$d/neg/task.txt" && LC_ALL=C sed -i 's/^taskinfo:tids=18202$/taskinfo:tids=-7/' "$d/neg/info" && $KTF tests/cli/uftrace/negative-tid.formats "$d/neg"; rc=$?; rm -rf "$d"; exit $rc
