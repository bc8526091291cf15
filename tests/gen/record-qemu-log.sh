#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-qemu-log.sh OUTDIR — record small real logs of QEMU's log trace
# backend with Debian's QEMU (packages qemu-user, qemu-system-x86; 7.2 on
# Debian 12), for tests/cli/qemu-log/:
#
#   user.qlog    qemu-x86_64 running /bin/true, a few TCG and mmap events
#               (qemu-user has no -msg: lines are NAME FORMATTED)
#   kvm72.qlog   qemu-system-x86_64 -accel kvm -msg timestamp=on, an empty
#               PC booting its firmware for a moment: kvm_run_exit,
#               kvm_vcpu_ioctl, kvm_set_user_memory as TID@SEC.USEC:NAME ...
#               (the first 200 lines)
#   kvm-iso.qlog kvm72.qlog with each 7.2 stamp rewritten as current QEMU
#               writes it (YYYY-MM-DDTHH:MM:SS.ffffffZ, UTC; no TID), as
#               Debian 12 has no QEMU that writes it
#
# Needs /dev/kvm for kvm72.qlog. The files are named .qlog: git and make
# dist leave *.log out (build logs).
set -eu
out=${1:?usage: record-qemu-log.sh OUTDIR}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-qlog.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

qemu-x86_64 -trace 'enable=target_mmap*' -trace 'enable=target_munmap' \
	-trace 'enable=guest_cpu_*' -trace 'enable=signal_table_init' \
	-trace 'enable=qemu_memalign' -D "$tmp/user.qlog" /bin/true
cp "$tmp/user.qlog" "$out/user.qlog"

(sleep 1; echo quit) | qemu-system-x86_64 -accel kvm -machine pc -m 32 \
	-display none -nodefaults -monitor stdio -msg timestamp=on \
	-trace 'enable=kvm_run_exit' -trace 'enable=kvm_vcpu_ioctl' \
	-trace 'enable=kvm_set_user_memory' -D "$tmp/kvm.log" > /dev/null
head -n 200 "$tmp/kvm.log" > "$out/kvm72.qlog"

python3 - "$out/kvm72.qlog" "$out/kvm-iso.qlog" <<'PY'
import re, sys, datetime
src, dst = sys.argv[1:]
with open(src) as f, open(dst, "w") as g:
    for line in f:
        m = re.match(r"(\d+)@(\d+)\.(\d{6}):", line)
        t = datetime.datetime.fromtimestamp(int(m.group(2)), datetime.timezone.utc)
        g.write(t.strftime("%Y-%m-%dT%H:%M:%S") + "." + m.group(3) + "Z "
                + line[m.end():])
PY
