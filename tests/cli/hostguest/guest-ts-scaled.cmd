# requires: tracecmd
# guest-d7.dat (gen-hostguest.py --scaled): a TIME_SHIFT of scaling about
# 1/2 in fraction bits maps two guest times to each host time; guest_ts is
# still the guest's recorded time of every record (the time stamps of
# tc-syscalls.dat, which it was made from), read from the record's page
d=$(mktemp -d) && $KTF -f tests/cli/hostguest/guest-ts-scaled.formats tests/fixtures/hostguest/guest-d7.dat 2>/dev/null | sort >"$d/got" && printf '* %%(common_cpu)d %%(ts)d\n' >"$d/f" && $KTF -f "$d/f" tests/fixtures/tracedat/tc-syscalls.dat | sort >"$d/want" && wc -l <"$d/want" && diff "$d/want" "$d/got" | head -5 && cmp -s "$d/want" "$d/got" && echo "guest_ts: every record's own time"; rc=$?; rm -rf "$d"; exit $rc
