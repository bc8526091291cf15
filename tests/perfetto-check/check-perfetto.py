#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-perfetto.py [--chrome JSON] PROTO TRACE -- check --perfetto output.

TRACE is decoded by `protoc --decode=ktf.Trace PROTO` (our own minimal
.proto of the fields kvmtrace_format writes; a field it does not know
fails the check). Then, on the decoded packets:

  - the first packet is on sequence 1 and says SEQ_INCREMENTAL_STATE_CLEARED;
    every packet is on sequence 1 (or is a track descriptor);
  - every interned id (event name, category, annotation name) is defined on
    the sequence, in that packet's InternedData or an earlier one, before it
    is used, never defined twice; a packet that uses one says
    SEQ_NEEDS_INCREMENTAL_STATE;
  - every track an event names was described by an earlier TrackDescriptor
    (thread tracks with pid and tid, process tracks with pid, counter
    tracks with a CounterDescriptor); counter events only on counter
    tracks, the others never;
  - slices balance and nest per track, taken in time order and then file
    order (as Perfetto's importer pairs them): every END closes an open
    BEGIN at or after its time; nothing is open at the end.

With --chrome JSON (kvmtrace_format --chrome of the same input), the two
must hold the same timeline: the same processes and thread tracks by pid
and tid with the same names; the same slices (X, and B/E paired) with
name, category, start and duration, and args (those of BEGIN and END
merged); the same instants with name, category, time and args; the same
counter samples (track name, time, value); args equal (numbers as
numbers, strings as strings, null as absent); times equal within 10 ns
(the JSON's µs with three decimals are exact ns, and a call repaired
from the trace start opens 1 ns early per enclosing level in Perfetto;
10 ns, not the 1 µs the two views must agree to, so that two short
slices swapped at one instant cannot pass).

Prints one line of counts and exits 0, or the problems and exits 1.
"""
import argparse
import collections
import decimal
import json
import math
import subprocess
import sys

TOL_NS = 10


def unescape(s):
    """The bytes of a text-format string literal (without its quotes)."""
    out = bytearray()
    i = 0
    simple = {'n': 10, 't': 9, 'r': 13, 'a': 7, 'b': 8, 'f': 12, 'v': 11,
              '\\': 92, "'": 39, '"': 34, '?': 63}
    while i < len(s):
        c = s[i]
        if c != '\\':
            out += c.encode('utf-8')
            i += 1
            continue
        i += 1
        c = s[i]
        if c in simple:
            out.append(simple[c])
            i += 1
        elif c in '01234567':
            j = i
            while j < len(s) and j < i + 3 and s[j] in '01234567':
                j += 1
            out.append(int(s[i:j], 8) & 0xff)
            i = j
        elif c == 'x':
            j = i + 1
            while j < len(s) and j < i + 3 and s[j] in '0123456789abcdefABCDEF':
                j += 1
            out.append(int(s[i + 1:j], 16))
            i = j
        else:
            raise ValueError('unknown escape \\' + c)
    return bytes(out)


def parse_text(text):
    """protoc's text format as nested dicts of lists."""
    root = collections.defaultdict(list)
    stack = [root]
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line == '}':
            stack.pop()
            continue
        if line.endswith('{'):
            key = line[:-1].strip()
            node = collections.defaultdict(list)
            stack[-1][key].append(node)
            stack.append(node)
            continue
        key, _, val = line.partition(': ')
        if not _:
            raise ValueError('line %d: cannot read %r' % (n, line))
        if val.startswith('"'):
            val = unescape(val[1:-1]).decode('utf-8')
        elif val and (val[0].isdigit() or val[0] == '-'):
            val = float(val) if any(c in val for c in '.eE') or \
                val in ('-inf', '-nan') else int(val)
        elif val in ('inf', 'nan'):
            val = float(val)
        stack[-1][key].append(val)
    if len(stack) != 1:
        raise ValueError('unbalanced braces')
    return root


def one(msg, key, default=None):
    v = msg.get(key)
    return v[0] if v else default


class Problems:
    def __init__(self):
        self.list = []

    def add(self, fmt, *args):
        if len(self.list) < 40:
            self.list.append(fmt % args)
        elif len(self.list) == 40:
            self.list.append('...')


def annotation_value(da):
    for k in ('uint_value', 'int_value', 'double_value', 'string_value'):
        if k in da:
            return da[k][0]
    if 'pointer_value' in da:   # an address: the JSON's hex string
        return '0x%x' % da['pointer_value'][0]
    return None


def read_perfetto(trace, pb):
    """Walk the packets; return the timeline and check its structure."""
    tracks = {}         # uuid -> dict(kind, pid, tid, name)
    iids = {'event_names': {}, 'event_categories': {},
            'debug_annotation_names': {}}
    events = []         # (ts, order, uuid, type, name, cat, args, value)
    packets = trace.get('packet', [])
    if not packets:
        pb.add('no packets')
        return tracks, events
    first = packets[0]
    if one(first, 'trusted_packet_sequence_id') != 1 or \
            not one(first, 'sequence_flags', 0) & 1:
        pb.add('packet 0: not SEQ_INCREMENTAL_STATE_CLEARED on sequence 1')
    for i, p in enumerate(packets):
        td = one(p, 'track_descriptor')
        if td is not None:
            uuid = one(td, 'uuid')
            if uuid in tracks:
                pb.add('packet %d: track %s described twice', i, uuid)
            if 'thread' in td:
                th = td['thread'][0]
                tracks[uuid] = dict(kind='thread', pid=one(th, 'pid'),
                                    tid=one(th, 'tid'),
                                    name=one(th, 'thread_name'))
            elif 'process' in td:
                pr = td['process'][0]
                tracks[uuid] = dict(kind='process', pid=one(pr, 'pid'),
                                    name=one(pr, 'process_name'))
            elif 'counter' in td:
                parent = tracks.get(one(td, 'parent_uuid'))
                tracks[uuid] = dict(kind='counter', name=one(td, 'name'),
                                    pid=parent['pid'] if parent else None,
                                    cat=one(td['counter'][0], 'categories'))
            else:
                pb.add('packet %d: track %s is none of thread, process, counter',
                       i, uuid)
            continue
        if one(p, 'trusted_packet_sequence_id') != 1:
            pb.add('packet %d: not on sequence 1', i)
        for idata in p.get('interned_data', []):
            for kind, table in iids.items():
                for entry in idata.get(kind, []):
                    iid = one(entry, 'iid')
                    if iid in table:
                        pb.add('packet %d: %s iid %s defined twice', i, kind,
                               iid)
                    table[iid] = one(entry, 'name')
        te = one(p, 'track_event')
        if te is None:
            if i:
                pb.add('packet %d: neither a track nor an event', i)
            continue
        uses = False

        def lookup(kind, iid):
            if iid not in iids[kind]:
                pb.add('packet %d: %s iid %s used before it is defined', i,
                       kind, iid)
                return None
            return iids[kind][iid]
        name = one(te, 'name')
        if 'name_iid' in te:
            uses = True
            name = lookup('event_names', one(te, 'name_iid'))
        cat = one(te, 'categories')
        if 'category_iids' in te:
            uses = True
            cat = lookup('event_categories', one(te, 'category_iids'))
        args = {}
        for da in te.get('debug_annotations', []):
            key = one(da, 'name')
            if 'name_iid' in da:
                uses = True
                key = lookup('debug_annotation_names', one(da, 'name_iid'))
            args[key] = annotation_value(da)
        if uses and not one(p, 'sequence_flags', 0) & 2:
            pb.add('packet %d: uses interned data without SEQ_NEEDS_INCREMENTAL_STATE',
                   i)
        uuid = one(te, 'track_uuid')
        typ = one(te, 'type')
        tr = tracks.get(uuid)
        if tr is None:
            pb.add('packet %d: track %s used before it is described', i, uuid)
        elif (typ == 'TYPE_COUNTER') != (tr['kind'] == 'counter'):
            pb.add('packet %d: %s on a %s track', i, typ, tr['kind'])
        ts = one(p, 'timestamp')
        if ts is None:
            pb.add('packet %d: an event without a time stamp', i)
            ts = 0
        events.append((ts, i, uuid, typ, name, cat, args,
                       one(te, 'double_counter_value')))
    return tracks, events


def perfetto_timeline(tracks, events, pb):
    """Slices, instants and counters keyed by (pid, tid)."""
    slices, instants, counters = [], [], []
    open_ = collections.defaultdict(list)
    for ts, i, uuid, typ, name, cat, args, value in sorted(
            events, key=lambda e: (e[0], e[1])):
        tr = tracks.get(uuid, {})
        where = (tr.get('pid'), tr.get('tid'))
        if typ == 'TYPE_SLICE_BEGIN':
            open_[uuid].append([ts, name, cat, dict(args), i])
        elif typ == 'TYPE_SLICE_END':
            if not open_[uuid]:
                pb.add('packet %d: END on track %s with no slice open', i,
                       uuid)
                continue
            b = open_[uuid].pop()
            if ts < b[0]:
                pb.add('packet %d: END before its BEGIN', i)
            b[3].update(args)
            slices.append((where, b[1], b[2], b[0], ts - b[0], b[3]))
        elif typ == 'TYPE_INSTANT':
            instants.append((where, name, cat, ts, args))
        elif typ == 'TYPE_COUNTER':
            counters.append((tr.get('name'), tr.get('pid'), ts, value))
        else:
            pb.add('packet %d: event type %s', i, typ)
    for uuid, st in open_.items():
        if st:
            pb.add('track %s: %d slices never end (first at packet %d)',
                   uuid, len(st), st[0][4])
    return slices, instants, counters


def chrome_timeline(doc, pb):
    # µs after the metadata's ts_base_ns (a wall-clock timeline)
    base = int(doc.get('metadata', {}).get('ts_base_ns', 0))

    def us_to_ns(us):   # exact: the JSON's numbers are read as decimals
        return int((decimal.Decimal(us) * 1000).to_integral_value()) + base

    def floats(args):
        return {k: float(v) if isinstance(v, decimal.Decimal) else v
                for k, v in args.items()}

    slices, instants, counters = [], [], []
    threads, procs = {}, {}
    open_ = collections.defaultdict(list)
    evs = doc['traceEvents']
    order = sorted(range(len(evs)), key=lambda k: (evs[k].get('ts', 0), k))
    for k in order:
        e = evs[k]
        ph = e['ph']
        where = (e.get('pid'), e.get('tid'))
        args = floats(e.get('args', {}))
        if ph == 'M':
            if e['name'] == 'thread_name':
                threads[where] = args['name']
            elif e['name'] == 'process_name':
                procs[e['pid']] = args['name']
        elif ph == 'X':
            slices.append((where, e['name'], e['cat'], us_to_ns(e['ts']),
                           us_to_ns(e['dur']) - base, args))
        elif ph == 'B':
            open_[where].append((e, dict(args)))
        elif ph == 'E':
            if not open_[where]:
                pb.add('chrome: E with no B open on %s', where)
                continue
            b, bargs = open_[where].pop()
            bargs.update(args)
            slices.append((where, b['name'], b['cat'], us_to_ns(b['ts']),
                           us_to_ns(e['ts']) - us_to_ns(b['ts']), bargs))
        elif ph == 'i':
            instants.append((where, e['name'], e['cat'], us_to_ns(e['ts']),
                             args))
        elif ph == 'C':
            for name, v in args.items():
                counters.append((name, e['pid'], us_to_ns(e['ts']), float(v)))
    return threads, procs, slices, instants, counters


def norm_args(args):
    return tuple(sorted((k, v) for k, v in args.items() if v is not None))


def same_value(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a == b or (math.isfinite(a) and abs(a - b) <= 1e-9 * max(1, abs(a)))
    return a == b


def compare(kind, ours, theirs, key, cmp, pb):
    """ours, theirs: lists; key sorts both alike; cmp(a, b) -> problem."""
    if len(ours) != len(theirs):
        pb.add('%s: %d in the Perfetto trace, %d in the JSON', kind,
               len(ours), len(theirs))
    ours = sorted(ours, key=key)
    theirs = sorted(theirs, key=key)
    for a, b in zip(ours, theirs):
        why = cmp(a, b)
        if why:
            pb.add('%s: %s\n  perfetto %r\n  json     %r', kind, why, a, b)
            return


def cmp_slice(a, b):
    if a[0] != b[0] or a[1] != b[1] or a[2] != b[2]:
        return 'track, name or category differ'
    if abs(a[3] - b[3]) > TOL_NS or abs(a[4] - b[4]) > TOL_NS:
        return 'times differ'
    if norm_args(a[5]) != norm_args(b[5]):
        return 'args differ'
    return None


def cmp_instant(a, b):
    if a[0] != b[0] or a[1] != b[1] or a[2] != b[2]:
        return 'track, name or category differ'
    if abs(a[3] - b[3]) > TOL_NS:
        return 'times differ'
    if norm_args(a[4]) != norm_args(b[4]):
        return 'args differ'
    return None


def cmp_counter(a, b):
    if a[0] != b[0] or a[1] != b[1] or abs(a[2] - b[2]) > TOL_NS or \
            not same_value(a[3], b[3]):
        return 'counter samples differ'
    return None


def slice_key(s):
    return (str(s[0]), s[1], s[2], s[3], s[4], repr(norm_args(s[5])))


def instant_key(s):
    return (str(s[0]), s[1], s[2], s[3], repr(norm_args(s[4])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--chrome')
    ap.add_argument('--protoc', default='protoc')
    ap.add_argument('proto')
    ap.add_argument('trace')
    a = ap.parse_args()
    with open(a.trace, 'rb') as f:
        raw = f.read()
    dec = subprocess.run([a.protoc, '--decode=ktf.Trace', '-I',
                          a.proto.rsplit('/', 1)[0] if '/' in a.proto else '.',
                          a.proto], input=raw, capture_output=True)
    pb = Problems()
    if dec.returncode != 0:
        print('%s: protoc --decode failed: %s' % (a.trace,
              dec.stderr.decode(errors='replace').strip()))
        return 1
    text = dec.stdout.decode()
    trace = parse_text(text)
    # a field our .proto does not know is printed by number
    for line in text.splitlines():
        head = line.strip().split(':')[0].split(' ')[0]
        if head.isdigit():
            pb.add('unknown field %s: %s', head, line.strip())
            break
    tracks, events = read_perfetto(trace, pb)
    slices, instants, counters = perfetto_timeline(tracks, events, pb)
    summary = '%d packets, %d tracks, %d slices, %d instants, %d counter samples' % (
        len(trace.get('packet', [])), len(tracks), len(slices), len(instants),
        len(counters))
    if a.chrome:
        with open(a.chrome) as f:
            doc = json.load(f, parse_float=decimal.Decimal)
        threads, procs, cs, ci, cc = chrome_timeline(doc, pb)
        pthreads = {(t['pid'], t['tid']): t['name'] for t in tracks.values()
                    if t['kind'] == 'thread'}
        pprocs = {t['pid']: t['name'] for t in tracks.values()
                  if t['kind'] == 'process' and t['name'] is not None}
        if pthreads != threads:
            pb.add('thread tracks differ:\n  perfetto %r\n  json     %r',
                   sorted(pthreads.items()), sorted(threads.items()))
        if pprocs != procs:
            pb.add('processes differ:\n  perfetto %r\n  json     %r',
                   sorted(pprocs.items()), sorted(procs.items()))
        compare('slices', slices, cs, slice_key, cmp_slice, pb)
        compare('instants', instants, ci, instant_key, cmp_instant, pb)
        compare('counters', counters, cc,
                lambda c: (str(c[0]), c[1], c[2]), cmp_counter, pb)
        summary += '; the same as the JSON'
    if pb.list:
        print('%s: FAIL' % a.trace)
        for p in pb.list:
            print('  ' + p)
        return 1
    print('%s: ok: %s' % (a.trace.rsplit('/', 1)[-1], summary))
    return 0


if __name__ == '__main__':
    sys.exit(main())
