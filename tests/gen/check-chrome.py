#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-chrome.py FILE... -- check kvmtrace_format --chrome output.

Not part of `make check` (no Python needed there): run it on the CLI
expectations, tests/cli/chrome/*.out, or on any output ('-' reads standard
input). For each file:

  - it is JSON (json.load), an object with traceEvents (a list), no
    displayTimeUnit (ts are µs) and a metadata object with clock and
    inputs; ts_base_ns, if there, a string of digits;
  - every event has ph, pid and tid; every ph is one of M X B E i;
    ts is a number (not NaN), X has dur >= 0, i has s "t";
  - B and E balance per (pid, tid) in time order, E never before its B;
  - host and guest are different processes: every input's domain maps to
    one pid, no two domains share one, and the process_name of that pid,
    where it has events, starts with the domain; an input a program wrote
    (QEMU's) lists its own processes ("pids"), none the kernel's, each
    named after the program (the first word of the input's kind);
  - every thread that has events has a thread_name, and it says what the
    track is: "vCPU N (host tid T)" or "vCPU N (pid P)" (a host's vCPU
    thread), "guest vCPU N", "host CPU N", "task COMM:TID", "guest task
    COMM:TID" (or "task TID"), "(threads beyond the first N)"; in a
    program's process, "vCPU N", "thread TID", "no vCPU named";
  - no process is empty: every process_name has a thread with events;
  - exit slices (cat "kvm", ph "X") carry the reason's number as args,
    and, with --expect-exit-args KEYS, each of KEYS (e.g. rip,symbol,info)
    on every one of them;
  - with --summary, one line per track: its process, its name and how many
    slices (X, B) and instants it has, sorted; then the arg keys of the
    exit slices, and the slice names of each category (sched, irq,
    softirq) with their counts.
  - kvm exits: with --expect-exits N, exactly N exits: slices with cat
    "kvm" and ph "X" (one per exit, closed at the end if no entry came),
    plus instants with cat "kvm" and an "unpaired" arg (an exit followed
    by another exit on its vCPU, whose duration is unknown).

Prints one line per file and exits 1 if any check failed.
"""
import argparse
import collections
import json
import math
import re
import sys

TRACK = re.compile(r'^(vCPU \d+ \((host tid|pid) -?\d+\)|vCPU \d+|guest vCPU \d+|'
                   r'host CPU \d+|(guest )?task (.+:)?\d+|'
                   r'\(threads beyond the first \d+\)|thread \d+|no vCPU named)$')


def check(path, expect_exits, expect_args=(), summary=None):
    errs = []
    with (sys.stdin if path == '-' else open(path, 'rb')) as f:
        raw = f.read()
    if isinstance(raw, str):
        raw = raw.encode()
    try:
        # strict: invalid UTF-8 must not reach the file
        doc = json.loads(raw.decode('utf-8'))
    except (ValueError, UnicodeDecodeError) as e:
        return ['not JSON: %s' % e]
    if not isinstance(doc, dict) or not isinstance(doc.get('traceEvents'), list):
        return ['no traceEvents list']
    if 'displayTimeUnit' in doc:
        errs.append('displayTimeUnit is there: ts are in µs')
    meta = doc.get('metadata')
    if not isinstance(meta, dict) or 'clock' not in meta or 'inputs' not in meta:
        errs.append('metadata without clock and inputs')
    elif 'ts_base_ns' in meta and not str(meta['ts_base_ns']).isdigit():
        errs.append('ts_base_ns is not a string of digits')
        meta = {'inputs': []}

    evs = doc['traceEvents']
    pname, tname, used = {}, {}, set()
    spans = []   # (ts, order, ph, pid, tid)
    exits = 0
    per_track = collections.defaultdict(collections.Counter)
    exit_args = collections.Counter()
    cat_names = collections.defaultdict(collections.Counter)
    nslices = 0
    for i, e in enumerate(evs):
        where = 'event %d' % i
        ph = e.get('ph')
        if ph not in ('M', 'X', 'B', 'E', 'i'):
            errs.append('%s: ph %r' % (where, ph))
            continue
        if not isinstance(e.get('pid'), int) or not isinstance(e.get('tid'), int):
            errs.append('%s: pid/tid not integers' % where)
            continue
        key = (e['pid'], e['tid'])
        if ph == 'M':
            n = e.get('name')
            a = e.get('args', {})
            if n == 'process_name':
                pname[e['pid']] = a.get('name', '')
            elif n == 'thread_name':
                tname[key] = a.get('name', '')
            continue
        ts = e.get('ts')
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or \
                (isinstance(ts, float) and math.isnan(ts)):
            errs.append('%s: ts %r' % (where, ts))
            continue
        used.add(key)
        per_track[key][ph] += 1
        if ph == 'X':
            d = e.get('dur')
            if not isinstance(d, (int, float)) or d < 0:
                errs.append('%s: X with dur %r' % (where, d))
            if e.get('cat') == 'kvm':
                exits += 1
                nslices += 1
                a = e.get('args', {})
                exit_args.update(a.keys())
                if not isinstance(a.get('reason'), int):
                    errs.append('%s: exit slice without its reason' % where)
                for k in expect_args:
                    if k not in a:
                        errs.append('%s: exit slice without %s' % (where, k))
            elif e.get('cat') in ('sched', 'irq', 'softirq'):
                cat_names[e['cat']][re.sub(r':\d+$', ':TID', e.get('name', ''))] += 1
        elif ph == 'i':
            if e.get('s') != 't':
                errs.append('%s: instant without "s":"t"' % where)
            if e.get('cat') == 'kvm' and 'unpaired' in e.get('args', {}):
                exits += 1
        else:
            spans.append((ts, i, ph, key))

    # B/E balance per thread, in time order (file order breaks ties)
    depth = {}
    for ts, i, ph, key in sorted(spans):
        depth[key] = depth.get(key, 0) + (1 if ph == 'B' else -1)
        if depth[key] < 0:
            errs.append('event %d: E without a B on pid %d tid %d' % (i, *key))
            depth[key] = 0
    for key, d in sorted(depth.items()):
        if d:
            errs.append('pid %d tid %d: %d B without E' % (*key, d))

    # domains to processes
    dom_pid, prog_pids = {}, set()
    for inp in meta.get('inputs', []):
        if 'pids' in inp:
            prog = str(inp.get('kind', '')).split(' ')[0]
            for pid in inp['pids']:
                if pid in prog_pids:
                    errs.append('process %r in two inputs' % pid)
                prog_pids.add(pid)
                if not re.match(re.escape(prog) + '[ :]', str(pname.get(pid, ''))):
                    errs.append('process %r is not named after %s'
                                % (pid, prog))
            continue
        dom, pid = inp.get('domain'), inp.get('pid')
        if dom_pid.setdefault(dom, pid) != pid:
            errs.append('domain %s in two processes' % dom)
    if len(set(dom_pid.values())) != len(dom_pid):
        errs.append('host and guest share a process: %r' % dom_pid)
    if prog_pids & set(dom_pid.values()):
        errs.append('a program shares a process with the kernel')
    used_pids = {k[0] for k in used}
    for dom, pid in dom_pid.items():
        if pid in used_pids and not str(pname.get(pid, '')).startswith(str(dom)):
            errs.append('process %r is not named after %s' % (pid, dom))
    for pid in sorted(pname):
        if pid not in used_pids:
            errs.append('process %d (%s) is empty' % (pid, pname[pid]))
    for key in sorted(used):
        if key not in tname:
            errs.append('pid %d tid %d has events but no thread_name' % key)
        elif not TRACK.match(tname[key]):
            errs.append('pid %d tid %d: track name %r says not what it is'
                        % (key[0], key[1], tname[key]))
    if summary is not None:
        for key in sorted(used, key=lambda k: (pname.get(k[0], ''),
                                               tname.get(k, ''))):
            n = per_track[key]
            summary.append('%s | %s | X %d B %d i %d' % (
                pname.get(key[0], '?'), tname.get(key, '?'), n['X'], n['B'],
                n['i']))
        summary.append('exit slices %d, args: %s' % (nslices, ' '.join(
            '%s=%d' % kv for kv in sorted(exit_args.items()))))
        for cat in sorted(cat_names):
            summary.append('%s: %s' % (cat, ', '.join(
                '%s=%d' % kv for kv in sorted(cat_names[cat].items()))))
    if expect_exits is not None and exits != expect_exits:
        errs.append('%d kvm exits, expected %d' % (exits, expect_exits))
    return errs, len(evs), exits, dict(sorted(depth.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--expect-exits', type=int)
    ap.add_argument('--expect-exit-args', default='',
                    help='comma-separated args every exit slice has')
    ap.add_argument('--summary', action='store_true',
                    help='print the tracks, their slices and the exit args')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    bad = 0
    for p in a.files:
        lines = [] if a.summary else None
        r = check(p, a.expect_exits,
                  [k for k in a.expect_exit_args.split(',') if k], lines)
        for line in lines or []:
            print(line)
        if isinstance(r, list):
            errs, n, x = r, 0, 0
        else:
            errs, n, x, _ = r
        if errs:
            bad += 1
            print('FAIL %s: %s' % (p, '; '.join(errs[:5])))
        else:
            print('ok   %s: %d events, %d exits' % (p, n, x))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
