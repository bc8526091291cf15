# SPDX-License-Identifier: GPL-2.0-or-later
#
# live/topbuf.sh — sourced by live.sh and live-kvm.sh: the size of the top
# instance's ring buffer, which `trace-cmd record -b` sets and leaves.
# Their reference recording runs on the top instance, whose per-CPU
# buffer may be small on these machines (67 KB was seen, against 1410 for
# a new instance such as --live's): trace-cmd's reader then falls behind
# the guest's first thousand events and the kernel overwrites some, so
# trace-cmd report lacks events --live has. They record with
# TOPBUF_KB and put the size back when they end.
# topbuf_save: remember buffer_size_kb ("7 (expanded: 1408)" at boot is
# still the boot minimum: the expanded size is the one to restore);
# topbuf_restore: write it back. $TR is tracefs.
# topbuf_args: the options for trace-cmd record ("-b KB", or none where
# buffer_size_kb cannot be written: trace-cmd would stop at -b there).
TOPBUF_KB=${TOPBUF_KB:-4096}
topbuf_saved=""
topbuf_args=""
topbuf_save() {
	topbuf_saved=$(sed -n 's/.*expanded: \([0-9]*\)).*/\1/p; t; s/^\([0-9]*\).*/\1/p' \
		"$TR/buffer_size_kb" 2>/dev/null)
	topbuf_args=""
	[ -n "$topbuf_saved" ] &&
		(echo "$topbuf_saved" > "$TR/buffer_size_kb") 2>/dev/null &&
		topbuf_args="-b $TOPBUF_KB"
}
topbuf_restore() {
	[ -n "$topbuf_saved" ] &&
		echo "$topbuf_saved" > "$TR/buffer_size_kb" 2>/dev/null
	topbuf_saved=""
}
