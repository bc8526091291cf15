#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""chrome-tracks.py KTF -- each kvmtrace instant of --chrome on its track.

Writes two kvmtrace streams (records as tests/gen/gen-sample-kvmtrace.py
describes them) of the same four pids and four vCPUs, runs
`KTF --chrome -c 1000 HOST --guest GUEST` and checks that every instant
of a record (cat "kvmtrace", args pid and vcpu) is on the track of its
vCPU (the host's records and the guest's have ids of their own): in the
host's process a track named "vCPU V (pid P)" of its own
vcpu and pid, in the guest's a "guest vCPU V" that holds that one pid's
events (one track per VM and vCPU), and that there is one track per
(domain, pid, vCPU). The sink finds a kvmtrace event's track by (pid,
machine, domain, vCPU) in a cache: a key that leaves out the pid or the
domain puts events on another's track. Exit 0 if all match.
"""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

# the host's records' ids and the guest's: an instant's id says its input
IDS = {"host": [0x00020011, 0x00020006], "guest": [0x0002000D, 0x00020002]}


def stream(seed, ids, n):
    rnd = random.Random(seed)
    out, ts = [], 1000000
    for _ in range(n):
        ts += rnd.randrange(1, 5000)
        ev = rnd.choice(ids)
        data = [rnd.randrange(1 << 32) for _ in range(rnd.randrange(3))]
        out.append(struct.pack("<III", ev | len(data) << 28 | 1 << 31,
                               1000 + rnd.randrange(4), rnd.randrange(4)))
        out.append(struct.pack("<Q", ts))
        out.append(struct.pack("<%dI" % len(data), *data))
    return b"".join(out)


def main():
    ktf = sys.argv[1]
    print("1..1")
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for seed, dom in ((11, "host"), (12, "guest")):
            paths.append(os.path.join(tmp, "s%d.bin" % seed))
            with open(paths[-1], "wb") as f:
                f.write(stream(seed, IDS[dom], 4000))
        doc = json.loads(subprocess.run(
            [ktf, "--chrome", "-c", "1000", paths[0], "--guest", paths[1]],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            universal_newlines=True).stdout)
    names, procs, seen, bad, n = {}, {}, {}, [], 0
    for e in doc["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
    for e in doc["traceEvents"]:
        if e["ph"] != "i" or e.get("cat") != "kvmtrace":
            continue
        n += 1
        track = (e["pid"], e["tid"])
        pid, vcpu = e["args"]["pid"], e["args"]["vcpu"]
        proc = procs.get(e["pid"], "")
        dom = "host" if e["args"]["event"] in IDS["host"] else "guest"
        if dom == "host":
            want = "vCPU %d (pid %d)" % (vcpu, pid)
        else:
            want = "guest vCPU %d" % vcpu
        if not proc.startswith(dom):
            bad.append("%s: a %s event in process %r" % (e["ts"], dom, proc))
        if names.get(track) != want:
            bad.append("%s: %s on %s, not %r" % (e["ts"], (pid, vcpu),
                                                names.get(track), want))
        seen.setdefault((dom, pid, vcpu), set()).add(track)
        seen.setdefault(track, set()).add((dom, pid, vcpu))
    for k, v in seen.items():
        if len(v) != 1:
            bad.append("%s: %d of them: %s" % (k, len(v), sorted(v)[:4]))
    doms = {k[0] for k in seen if isinstance(k[0], str)}
    if doms != {"host", "guest"} or n < 7000:
        bad.append("%d instants, domains %s" % (n, sorted(doms)))
    for b in bad[:10]:
        print("# " + b)
    print("%s 1 - %d instants on %d tracks" %
          ("not ok" if bad else "ok", n,
           len([k for k in seen if isinstance(k[0], int)])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
