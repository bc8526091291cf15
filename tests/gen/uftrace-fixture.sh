# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# uftrace-fixture.sh — sourced by the record-uftrace*.sh scripts: how a
# recorded uftrace data directory becomes a fixture.
#
#   uftrace_fixture DIR NAME EXE OUTDIR
#
# writes uftrace's dump, report and replay of DIR to NAME.dump, .report
# and .replay beside DIR; removes the .sym and .dbg files of everything
# but EXE (the libraries' files are large and no test needs them) and
# checks that the dump has not changed without them; then copies DIR to
# OUTDIR/NAME and the three outputs to OUTDIR.

uftrace_fixture() {
	_d=$1 _name=$2 _exe=$3 _out=$4
	_at=$(dirname "$_d")
	uftrace dump -d "$_d" > "$_at/$_name.dump"
	uftrace report -d "$_d" > "$_at/$_name.report"
	uftrace replay -d "$_d" > "$_at/$_name.replay"
	for _f in "$_d"/*.sym "$_d"/*.dbg; do
		[ -e "$_f" ] || continue
		case ${_f##*/} in "$_exe".sym | "$_exe".dbg) ;; *) rm "$_f" ;; esac
	done
	uftrace dump -d "$_d" | cmp -s - "$_at/$_name.dump" || {
		echo "${0##*/}: $_name: dump changed without library files" >&2
		exit 1
	}
	rm -rf "${_out:?}/$_name"
	cp -r "$_d" "$_out/$_name"
	cp "$_at/$_name.dump" "$_at/$_name.report" "$_at/$_name.replay" "$_out/"
}
