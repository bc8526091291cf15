#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-tracedat.sh [-r] KTF FILE.dat... — compare what kvmtrace_format
# reads from trace.dat files with `trace-cmd report -t`, column by column:
# task comm and pid, CPU, time stamp (integer: ns, or the raw counter),
# event name and info text, in the same order. Exits 0 when every file
# matches. The reference is FILE.dat.report-t when it exists (recorded
# with the fixture), else trace-cmd runs now; -r: always run trace-cmd.
#
# Our side prints each event through the rule
#   * %(common_comm)s-%(common_pid)d [%(common_cpu)03d] %(ts)d: %(common_name)s: %(info)s
# (common_*: the task, CPU and event name, never shadowed by fields of the
# event such as sched_wakeup's comm and pid or irq_handler_entry's name),
# after the header line of our default output ("cpus=N"); the report side
# is parsed back into the same shape, its header line as it is.
set -u
rerun=
[ "${1:-}" = -r ] && { rerun=1; shift; }
ktf=${1:?usage: check-tracedat.sh [-r] KTF FILE.dat...}
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-tracedat.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

printf '%s\n' '* %(common_comm)s-%(common_pid)d [%(common_cpu)03d] %(ts)d: %(common_name)s: %(info)s' \
	>"$tmp/rules"

# "   comm-pid   [cpu] sec.nsec: name:<pad to 20> info", or "%12d:" raw
# time stamps; lines that do not start an event (multi-line info) pass as
# they are, and so does the header "cpus=N"; dropped-event notes are not
# events.
norm_report() {
	awk '
	/^CPU:[0-9]+ \[.*EVENTS DROPPED\]$/ { dropped++; next }
	{
		if (!match($0, /^ *.*-[0-9-]+ +\[[0-9]+\] *[0-9]+(\.[0-9]+)?: /)) {
			print; next
		}
		head = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1)
		sub(/^ +/, "", head)
		# comm-pid
		match(head, /-[0-9-]+ +\[/)
		comm = substr(head, 1, RSTART - 1)
		t = substr(head, RSTART + 1)
		pid = t; sub(/ .*/, "", pid)
		cpu = t; sub(/^[^[]*\[/, "", cpu); sub(/\].*/, "", cpu)
		ts = t; sub(/^[^]]*\] */, "", ts); sub(/: $/, "", ts)
		if (index(ts, ".")) {
			sec = ts; sub(/\..*/, "", sec)
			frac = ts; sub(/.*\./, "", frac)
			ts = sec frac
			sub(/^0+/, "", ts)
			if (ts == "") ts = "0"
		}
		# name: then its padding to 20 columns
		i = index(rest, ": ")
		name = substr(rest, 1, i - 1)
		info = substr(rest, i + 2)
		pad = 20 - length(name)
		if (pad > 0 && substr(info, 1, pad) ~ /^ *$/)
			info = substr(info, pad + 1)
		printf "%s-%s [%s] %s: %s: %s\n", comm, pid, cpu, ts, name, info
	}
	END { if (dropped) printf "%d dropped-event notes\n", dropped > "/dev/stderr" }'
}

status=0
for f in "$@"; do
	if [ -z "$rerun" ] && [ -f "$f.report-t" ]; then
		cp "$f.report-t" "$tmp/report"
	elif ! command -v trace-cmd >/dev/null; then
		echo "SKIP $f: no $f.report-t and no trace-cmd"
		continue
	elif ! trace-cmd report -t "$f" >"$tmp/report" 2>"$tmp/report.err"; then
		echo "SKIP $f: trace-cmd report fails: $(head -1 "$tmp/report.err")"
		continue
	fi
	norm_report <"$tmp/report" >"$tmp/want"
	if ! "$ktf" "$f" 2>"$tmp/got.err" | head -1 >"$tmp/got" ||
	   ! "$ktf" -f "$tmp/rules" "$f" >>"$tmp/got" 2>"$tmp/got.err"; then
		echo "FAIL $f: kvmtrace_format: $(head -1 "$tmp/got.err")"
		status=1
		continue
	fi
	n=$(wc -l <"$tmp/want")
	if cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok   $f: $n lines match trace-cmd report -t"
	else
		echo "FAIL $f: differs from trace-cmd report -t ($n lines):"
		diff "$tmp/want" "$tmp/got" | head -10 | sed 's/^/     /'
		status=1
	fi
done
exit $status
