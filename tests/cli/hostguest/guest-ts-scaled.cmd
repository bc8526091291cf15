# requires: tracecmd
# guest_ts is the guest's recorded time of every record, read from the
# record's page: guest-d7.dat (gen-hostguest.py --scaled), whose TIME_SHIFT
# of scaling about 1/2 in fraction bits maps two guest times to each host
# time, against tc-syscalls.dat it was made from; guest-b7n.dat (TSC2NSEC:
# its ts in ns) against host-kvm-tsc-change.dat (the TSC as recorded)
d=$(mktemp -d) && printf '* %%(common_cpu)d %%(ts)d\n' >"$d/f" && for p in guest-d7:tc-syscalls guest-b7n:host-kvm-tsc-change; do $KTF -f tests/cli/hostguest/guest-ts-scaled.formats tests/fixtures/hostguest/${p%:*}.dat 2>/dev/null | sort >"$d/got" && $KTF -f "$d/f" tests/fixtures/tracedat/${p#*:}.dat | sort >"$d/want" && diff "$d/want" "$d/got" | head -5 && cmp -s "$d/want" "$d/got" && echo "${p%:*}: guest_ts of $(wc -l <"$d/want") records: their own time in ${p#*:}.dat" || break; done; rc=$?; rm -rf "$d"; exit $rc
