#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh GROUP.t — run the CLI cases a group lists and print TAP.
#
# GROUP.t lists cases, one glob per line, relative to tests/cli/. A case NAME
# is NAME.cmd: the command line (shell words; $KTF is the binary; it may
# redirect standard input), run from the top of the source tree. Expected:
# NAME.out (stdout), NAME.err (stderr), NAME.rc (exit status, 0 if absent).
# A line "# requires: tracecmd|yaml|libiberty|root" in NAME.cmd skips the case without it.
set -u
group=$1
: "${KTF:?}" "${KTF_SRCDIR:?}"
clidir=$KTF_SRCDIR/tests/cli
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

cases=
while IFS= read -r pat || [ -n "$pat" ]; do
	case $pat in ''|'#'*) continue ;; esac
	for c in $clidir/$pat.cmd; do
		[ -f "$c" ] && cases="$cases ${c%.cmd}"
	done
done < "$group"

n=0
for c in $cases; do n=$((n + 1)); done
echo "1..$n"
[ "$n" -gt 0 ] || { echo "Bail out! $group lists no cases"; exit 99; }

i=0
for c in $cases; do
	i=$((i + 1))
	name=${c#"$clidir"/}
	need=$(sed -n 's/^# requires: *//p' "$c.cmd")
	skip=
	for r in $need; do
		case $r in
		tracecmd) [ -n "${KTF_HAVE_TRACECMD:-}" ] || skip=$r ;;
		yaml) [ -n "${KTF_HAVE_YAML:-}" ] || skip=$r ;;
		libiberty) [ -n "${KTF_HAVE_LIBIBERTY:-}" ] || skip=$r ;;
		root) [ "$(id -u)" = 0 ] || skip=$r ;;
		esac
	done
	if [ "$skip" = root ]; then
		echo "ok $i - $name # SKIP needs root"
		continue
	fi
	if [ -n "$skip" ]; then
		echo "ok $i - $name # SKIP built without $skip"
		continue
	fi
	cmd=$(grep -v '^#' "$c.cmd")
	(cd "$KTF_SRCDIR" && eval "$cmd") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	want_rc=0
	[ -f "$c.rc" ] && want_rc=$(cat "$c.rc")
	[ -f "$c.out" ] && cp "$c.out" "$tmp/want.out" || : >"$tmp/want.out"
	[ -f "$c.err" ] && cp "$c.err" "$tmp/want.err" || : >"$tmp/want.err"
	bad=
	cmp -s "$tmp/out" "$tmp/want.out" || bad="$bad stdout"
	cmp -s "$tmp/err" "$tmp/want.err" || bad="$bad stderr"
	[ "$rc" = "$want_rc" ] || bad="$bad status($rc, want $want_rc)"
	if [ -z "$bad" ]; then
		echo "ok $i - $name"
	else
		echo "not ok $i - $name:$bad differ"
		case $bad in *stdout*)
			diff "$tmp/want.out" "$tmp/out" | head -20 | sed 's/^/# /' ;;
		esac
		case $bad in *stderr*)
			diff "$tmp/want.err" "$tmp/err" | head -10 | sed 's/^/# /' ;;
		esac
	fi
done
