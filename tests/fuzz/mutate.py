#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mutate.py [-n N] [-s SEED] [-k KINDS] [-o DIR] KTF — a mutation campaign
against the whole program: N damaged copies of each kind of input made
from the fixtures, each run through KTF (best a --enable-sanitizers build),
one at a time, with a timeout.

Kinds: kvmtrace (streams, read from stdin and by name), classic (rule
files), yaml (rule files), uftrace (one file of a data directory damaged),
tracedat (trace.dat files). Damage: bytes overwritten, the file cut, a run
of bytes inserted or deleted.

A run passes when it ends with status 0, 1 or 2 within 60 s, with no
sanitizer report, and, unless 0, with a message "kvmtrace_format: …" on
standard error. Failing inputs are kept in DIR (default ./mutate-failures)
with the command; the exit status is 1 if any failed.

Run from the top of the source tree:
  python3 tests/fuzz/mutate.py -n 200 build/asan/kvmtrace_format
"""
import argparse
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile

FIX = "tests/fixtures"


def damage(r, data):
    data = bytearray(data)
    if not data:
        return bytes([r.randrange(256) for _ in range(r.randrange(1, 64))])
    kind = r.randrange(4)
    if kind == 0:
        for _ in range(r.randrange(1, 9)):
            data[r.randrange(len(data))] = r.randrange(256)
    elif kind == 1:
        data = data[:r.randrange(len(data))]
    elif kind == 2:
        # the first KiB: headers, magic words, the first rules
        for _ in range(r.randrange(1, 5)):
            data[r.randrange(min(1024, len(data)))] = r.randrange(256)
    else:
        a = r.randrange(len(data))
        b = min(len(data), a + r.randrange(1, 65))
        if r.random() < 0.5:
            del data[a:b]
        else:
            data[a:a] = bytes(r.randrange(256) for _ in range(b - a))
    return bytes(data)


def cases(kind, r, n, tmp):
    """Yield (argv, stdin path or None, files to keep) for n damaged inputs."""
    if kind == "kvmtrace":
        srcs = sorted(glob.glob(FIX + "/kvmtrace/*.bin"))
        for i in range(n):
            p = os.path.join(tmp, "m.bin")
            open(p, "wb").write(damage(r, open(r.choice(srcs), "rb").read()))
            if i % 2:
                yield ["formats/kvmtrace"], p, [p]
            else:
                yield ["-f", "formats/kvmtrace", p], None, [p]
    elif kind == "classic":
        srcs = ["formats/kvmtrace"] + sorted(glob.glob(FIX + "/kvmtrace/*.formats"))
        for _ in range(n):
            p = os.path.join(tmp, "m.formats")
            open(p, "wb").write(damage(r, open(r.choice(srcs), "rb").read()))
            yield ["-f", p, FIX + "/kvmtrace/sample.bin"], None, [p]
    elif kind == "yaml":
        srcs = sorted(glob.glob("formats/*.yaml"))
        inputs = [FIX + "/kvmtrace/sample.bin", FIX + "/tracedat/host-kvm-v7.dat",
                  FIX + "/uftrace/plain"]
        for _ in range(n):
            p = os.path.join(tmp, "m.yaml")
            open(p, "wb").write(damage(r, open(r.choice(srcs), "rb").read()))
            yield ["-f", p, r.choice(inputs)], None, [p]
    elif kind == "uftrace":
        dirs = sorted(d for d in glob.glob(FIX + "/uftrace*/*")
                      if os.path.isfile(os.path.join(d, "info")))
        for _ in range(n):
            d = os.path.join(tmp, "m.uftrace")
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(r.choice(dirs), d)
            files = sorted(f for f in os.listdir(d)
                           if not f.startswith("perf-cpu"))
            f = os.path.join(d, r.choice(files))
            open(f, "wb").write(damage(r, open(f, "rb").read()))
            yield [d], None, [d]
    elif kind == "tracedat":
        srcs = sorted(glob.glob(FIX + "/tracedat/*.dat"))
        for _ in range(n):
            p = os.path.join(tmp, "m.dat")
            open(p, "wb").write(damage(r, open(r.choice(srcs), "rb").read()))
            yield [p], None, [p]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=100, help="inputs per kind")
    ap.add_argument("-s", type=int, default=1, help="random seed")
    ap.add_argument("-k", default="kvmtrace,classic,yaml,uftrace,tracedat")
    ap.add_argument("-o", default="mutate-failures")
    ap.add_argument("ktf")
    a = ap.parse_args()
    env = dict(os.environ)
    env.setdefault("LSAN_OPTIONS", "suppressions=%s print_suppressions=0"
                   % os.path.abspath("tests/lsan.supp"))
    r = random.Random(a.s)
    bad = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        env["TMPDIR"] = tmp
        for kind in a.k.split(","):
            counts = {0: 0, 1: 0, 2: 0}
            for argv, stdin, keep in cases(kind, r, a.n, tmp):
                total += 1
                cmd = [a.ktf] + argv
                try:
                    with open(stdin or os.devnull, "rb") as fin:
                        res = subprocess.run(cmd, stdin=fin,
                                             stdout=subprocess.DEVNULL,
                                             stderr=subprocess.PIPE,
                                             timeout=60, env=env)
                    rc = res.returncode
                    err = res.stderr.decode("utf-8", "replace")
                except subprocess.TimeoutExpired:
                    rc, err = "timeout", ""
                why = None
                if rc not in (0, 1, 2):
                    why = "status %s" % rc
                elif "Sanitizer" in err or "runtime error:" in err:
                    why = "sanitizer report"
                elif rc and "kvmtrace_format: " not in err:
                    why = "no message"
                if why is None:
                    counts[rc] += 1
                    continue
                bad += 1
                dst = os.path.join(a.o, "%s-%d-%d" % (kind, a.s, total))
                os.makedirs(dst, exist_ok=True)
                for k in keep:
                    t = os.path.join(dst, os.path.basename(k))
                    if os.path.isdir(k):
                        shutil.copytree(k, t)
                    else:
                        shutil.copy(k, t)
                with open(os.path.join(dst, "cmd"), "w") as f:
                    f.write(" ".join(cmd) + (" < " + stdin if stdin else "")
                            + "\n" + why + "\n" + err[:4000])
                print("FAIL %s: %s (%s)" % (kind, why, dst))
            print("%-9s %4d inputs: status 0: %d, 1: %d, 2: %d; failures: %d"
                  % (kind, a.n, counts[0], counts[1], counts[2],
                     a.n - sum(counts.values())))
            sys.stdout.flush()
    print("mutate: %d runs, %d failures" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
