#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-merge.sh < merged — read kvmtrace_format output rendered with
# tests/fixtures/merge/pio-samples.formats and check that every guest sample
# lands right before the host kvm_pio on port 0x10 that carries its low word
# (and after the previous one). Prints one line per misplaced sample and a
# summary; exits 1 if any is misplaced.
awk '
/ guest sample / {
	if (open) { bad++; print "sample " s " is not followed by its kvm_pio" }
	s = $4; sub("tsc_low=", "", $5); low = $5; open = 1; n++; next
}
/ host kvm_pio port=0x10 / {
	sub("val=", "", $5)
	if (!open) next
	if ($5 != low) { bad++; print "sample " s " (low " low ") lands before the kvm_pio of " $5 }
	open = 0
}
END {
	if (open) { bad++; print "sample " s " is not followed by its kvm_pio" }
	printf "%d guest samples, %d in place, %d misplaced\n", n, n - bad, bad
	exit bad ? 1 : 0
}'
