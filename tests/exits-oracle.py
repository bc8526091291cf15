#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""exits-oracle.py -- KVM exit figures by a straightforward pairing of
`trace-cmd report -t` lines, to check kvmtrace_format --stats against.

  trace-cmd report -t host.dat | exits-oracle.py > oracle.json
  trace-cmd report -t host.dat | exits-oracle.py --check stats.json
  trace-cmd report -t host.dat | exits-oracle.py --check stats.json \
      --longest top.json N    (top.json: --stats=json --stats-top=N)

Each kvm_exit pairs with the next kvm_entry of the same host thread (a
vCPU thread runs one vCPU of one VM: without a VM map, kvmtrace_format
names the VM after that thread, "pid N"). An exit followed by another
exit of the thread, or by the end, is unpaired. Times are the report's
nanosecond stamps. The reason is the word after "reason " (the kvm
plugin's text); the vCPU of a thread is the one its kvm_entry lines name.
A kvm_pio/kvm_mmio/kvm_msr/kvm_hypercall/kvm_inj_virq between an exit and
its entry charges the exit's time to its port, gpa, MSR, number or
vector (the first such event of the exit). The longest exits are, of
each reason, the first LONGEST paired ones by duration, then start, then
end.

Percentiles are exact (nearest rank: the ceil(q n)-th smallest). With
--check, the figures of kvmtrace_format --stats=json (ns timeline, so µs
with three decimals) must equal the oracle's counts, totals, min, max,
mean (to the ns) and unpaired, and its percentiles must lie within the
documented 0.79 % of the exact ones. Prints TAP.
"""
import json
import re
import sys

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s*(.*)$")
KINDS = {
    "kvm_pio": ("pio port", re.compile(r" at 0x([0-9a-f]+)")),
    "kvm_mmio": ("mmio gpa", re.compile(r" gpa 0x([0-9a-f]+)")),
    "kvm_msr": ("msr", re.compile(r"^msr_\w+ ([0-9a-f]+)")),
    "kvm_hypercall": ("hypercall", re.compile(r"^nr 0x([0-9a-f]+)")),
    "kvm_inj_virq": ("virq vector", re.compile(r" 0x([0-9a-f]+)")),
}
QS = {"p50": 500, "p90": 900, "p99": 990, "p99_9": 999}
LONGEST = 1            # --stats' longest exits of each reason, by default
REL_ERROR = 0.007813


def dist(values, unpaired):
    v = sorted(values)
    n = len(v)
    d = {"count": n, "unpaired": unpaired, "total": sum(v)}
    if n:
        d.update(min=v[0], max=v[-1], mean=sum(v) / n)
        for k, q in QS.items():
            d[k] = v[max(1, -(-n * q // 1000)) - 1]
    return d


def oracle(lines):
    pending = {}           # pid -> (ts, reason, kind)
    vcpu = {}
    by_reason, by_thread, kinds = {}, {}, {}
    unp_reason, unp_thread = {}, {}
    every = []
    paired = []            # (duration, start, seq, reason, pid, kind)

    def unpaired(pid):
        ts, reason, _ = pending.pop(pid)
        unp_reason[reason] = unp_reason.get(reason, 0) + 1
        unp_thread[pid] = unp_thread.get(pid, 0) + 1

    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        pid = int(m.group(2))
        ts = int(m.group(4)) * 1000000000 + int(m.group(5))
        event, info = m.group(6), m.group(7)
        if event == "kvm_exit":
            if pid in pending:
                unpaired(pid)
            reason = re.search(r"reason (\S+)", info).group(1)
            pending[pid] = (ts, reason, None)
        elif event == "kvm_entry":
            vcpu[pid] = int(re.search(r"vcpu (\d+)", info).group(1))
            if pid not in pending:
                continue
            t0, reason, kind = pending.pop(pid)
            d = ts - t0
            paired.append((d, t0, len(paired), reason, pid, kind))
            every.append(d)
            by_reason.setdefault(reason, []).append(d)
            by_thread.setdefault(pid, []).append(d)
            if kind:
                k = kinds.setdefault(kind, [0, 0, 0])
                k[0] += 1
                k[1] += d
                k[2] = max(k[2], d)
        elif event in KINDS and pid in pending and pending[pid][2] is None:
            name, rx = KINDS[event]
            km = rx.search(info)
            if km:
                t0, reason, _ = pending[pid]
                pending[pid] = (t0, reason, (name, int(km.group(1), 16)))
    for pid in list(pending):
        unpaired(pid)
    return {
        "all": dist(every, sum(unp_reason.values())),
        "reasons": {r: dist(by_reason.get(r, []), unp_reason.get(r, 0))
                    for r in set(by_reason) | set(unp_reason)},
        "threads": {"pid %d" % p: dict(dist(by_thread.get(p, []),
                                            unp_thread.get(p, 0)),
                                       vcpu=vcpu.get(p))
                    for p in set(by_thread) | set(unp_thread)},
        "kinds": {"%s 0x%x" % k: {"count": v[0], "total": v[1], "max": v[2]}
                  for k, v in kinds.items()},
        # every paired exit, longest first, then the one that began
        # first, then the one that ended first: --stats' longest exits
        # are the first LONGEST (or --stats-top) of each reason of them
        "longest": [{"start": t0, "domain": "host", "duration": d, "reason": r, "vm": "pid %d" % p,
                     "vcpu": vcpu.get(p), "about": "%s 0x%x" % k if k else None}
                    for d, t0, _, r, p, k in
                    sorted(paired, key=lambda e: (-e[0], e[1], e[2]))],
    }


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, what):
        self.n += 1
        if not cond:
            self.failed += 1
        print("%sok %d - %s" % ("" if cond else "not ", self.n, what))


def ns(us):
    """kvmtrace_format's µs with three decimals, as ns."""
    return None if us is None else round(float(us) * 1000)


def same_dist(tap, what, got, want):
    exact = ["count", "unpaired"] + (["total", "min", "max"] if want["count"] else [])
    bad = [k for k in exact
           if (got[k] if k in ("count", "unpaired") else ns(got[k + "_us"])) != want[k]]
    if want["count"] and abs(ns(got["mean_us"]) - want["mean"]) > 0.5:
        bad.append("mean")
    tap.ok(not bad, "%s: count, total, min, max, mean, unpaired%s" %
           (what, " differ: %s (got %s, want %s)" % (bad, got, want) if bad else ""))
    if not want["count"]:
        return
    worst = 0.0
    for k in QS:
        g, w = ns(got[k + "_us"]), want[k]
        # ours is printed to the ns: allow that rounding on top
        err = max(0.0, abs(g - w) - 0.5) / w if w else abs(g)
        worst = max(worst, err)
    tap.ok(worst <= REL_ERROR, "%s: p50..p99.9 within %.2f %% (worst %.4f %%)" %
           (what, REL_ERROR * 100, worst * 100))


def same_longest(tap, o, stats, top):
    seen = {}
    want = []
    for r in o["longest"]:
        seen[r["reason"]] = seen.get(r["reason"], 0) + 1
        if seen[r["reason"]] <= top:
            want.append(r)
    got = [{"start": r["start_ns"], "domain": r["domain"], "duration": ns(r["duration_us"]),
            "reason": r["reason"],
            "vm": r["vm"], "vcpu": r["vcpu"], "about": r["about"]}
           for r in stats.get("longest_exits", [])]
    abouts = len([r for r in want if r["about"]])
    tap.ok(got == want and stats.get("longest_per_reason") == top,
           "the %d longest exits of each reason, %d rows (%d about a port, address, …): "
           "start, domain, duration, reason, VM, vCPU, about%s" %
           (top, len(want), abouts, "" if got == want else
            " differ:\n  got  %s\n  want %s" % (got, want)))


def check(o, stats, longest):
    tap = Tap()
    if stats.get("duration_unit") != "us":
        print("Bail out! --stats=json must be on a nanosecond timeline")
        return 1
    rows = {r["reason"]: r for r in stats["exits_by_reason"] if r["domain"] != "all"}
    total = [r for r in stats["exits_by_reason"] if r["domain"] == "all"]
    tap.ok(set(rows) == set(o["reasons"]), "the same exit reasons: %s" % sorted(o["reasons"]))
    for reason in sorted(o["reasons"]):
        if reason in rows:
            same_dist(tap, reason, rows[reason], o["reasons"][reason])
    if total:
        same_dist(tap, "all exits", total[0], o["all"])
    threads = {r["vm"]: r for r in stats["exits_by_vcpu"] if r["vcpu"] != "all"}
    tap.ok(set(threads) == set(o["threads"]), "the same vCPU threads: %s" % sorted(o["threads"]))
    for t in sorted(o["threads"]):
        if t in threads:
            tap.ok(threads[t]["vcpu"] == o["threads"][t]["vcpu"], "%s runs vCPU %s" % (t, o["threads"][t]["vcpu"]))
            same_dist(tap, t, threads[t], o["threads"][t])
    kinds = {"%s %s" % (r["kind"], r["key"]): r for r in stats.get("exits_by_kind", [])}
    want = o["kinds"]
    bad = [k for k in want if k not in kinds or kinds[k]["count"] != want[k]["count"] or
           ns(kinds[k]["total_us"]) != want[k]["total"] or ns(kinds[k]["max_us"]) != want[k]["max"]]
    tap.ok(not bad and len(kinds) == len(want),
           "exits by kind: %d keys, counts, totals, max%s" % (len(want), " differ: %s" % bad if bad else ""))
    same_longest(tap, o, stats, LONGEST)
    if longest:
        with open(longest[0]) as f:
            same_longest(tap, o, json.load(f), int(longest[1]))
    print("1..%d" % tap.n)
    return 1 if tap.failed else 0


def main():
    o = oracle(sys.stdin)
    if len(sys.argv) in (3, 6) and sys.argv[1] == "--check":
        with open(sys.argv[2]) as f:
            sys.exit(check(o, json.load(f), sys.argv[4:] if sys.argv[3:4] == ["--longest"] else None))
    json.dump(o, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
