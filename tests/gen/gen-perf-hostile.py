#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-perf-hostile.py - perf.data files written to cost time or memory
out of proportion to their size (tests/hostile-perf.sh runs them).

usage: gen-perf-hostile.py CASE OUT [N]

  overlap   a normal file of N attrs (default 2000) whose id sections all
            name the same 200 KiB of ids: each attr took the whole range
            (3 GB and 105 s for 2000)
  zqueue    a -z normal file without FINISHED_ROUND: N (default 3 M)
            cpu-clock samples of 64 bytes, all stamped alike, in
            COMPRESSED records of 4 MiB each (a few hundred bytes each):
            the queue's cap counted only the records' bytes (512 MiB of
            them), not its entries (32 bytes a sample), the doubled
            capacities or the compaction's copy
  updates   a pipe file of N (default 48 000) HEADER_ATTR records, each
            followed by the EVENT_UPDATE naming it: every update sorted
            every id again
  tids      a normal file of N (default 1 M) COMM records of tids that
            are multiples of 2^17 (32 767 of them, round and round), then
            a kvm_exit sample: the thread table's hash put them all in
            one slot
  tids-plain  the same with tids 1 to 32 767 (the healthy case)

Each file is otherwise well formed and holds one kvm_exit tracepoint
sample that prints (so the file is not refused for want of tracepoints).
Layouts and helpers: tests/gen/gen-perfdata.py.
"""
import importlib.util
import os
import struct
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'genperf', os.path.join(here, 'gen-perfdata.py'))
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)

W = g.W(False)
ST = g.IP | g.TID | g.TIME | g.ID | g.CPU | g.PERIOD | g.RAW
T0 = 5000 * 10**9


def one_sample(eid, st=ST):
    raw = g.raw_exit(W, 4243, 12, 0xffffffff81001000, 0)
    return g.sample(W, st, 4242, 4243, T0, eid, 0, raw)


def normal_file(attrs, ids_blob, body, ids_off_fn=None):
    """attrs: list of (attr bytes of 128, ids offset, ids size)."""
    hdr_size = 104
    attr_size = 128 + 16
    attrs_off = hdr_size
    ids_off = attrs_off + attr_size * len(attrs)
    blob = b''.join(a + W.p('QQ', ids_off + o, n) for a, o, n in attrs)
    data_off = ids_off + len(ids_blob)
    feat_off = data_off + len(body)
    tdata = g.tracing_data(W, [g.KVM_EXIT])
    host = b'gen-perf-hostile\0'
    host += bytes(-len(host) % 64)
    feats = [tdata, W.p('I', len(host)) + host]
    table, blobs = b'', b''
    at = feat_off + 16 * len(feats)
    for fb in feats:
        table += W.p('QQ', at, len(fb))
        at += len(fb)
        blobs += fb
    h = b'PERFILE2' + W.p('QQ', hdr_size, attr_size)
    h += W.p('QQ', attrs_off, len(blob))
    h += W.p('QQ', data_off, len(body)) + W.p('QQ', 0, 0)
    h += W.p('QQQQ', 1 << 1 | 1 << 2, 0, 0, 0)
    return h + blob + ids_blob + body + table + blobs


def overlap(n):
    nids = 200 * 1024 // 8
    ids = b''.join(W.p('Q', 1000 + i) for i in range(nids))
    attrs = [(g.attr(W, 50, ST), 0, len(ids)) for _ in range(n)]
    return normal_file(attrs, ids, one_sample(1000))


def zqueue(n):
    # attr 0: cpu-clock, TIME only, no ids (so every sample is its own);
    # attr 1: kvm_exit, so that the file holds a tracepoint
    # (64-byte samples: ip, tid, time, addr, stream_id, cpu, period)
    st = g.IP | g.TID | g.TIME | 8 | 512 | g.CPU | g.PERIOD
    a0 = g.attr(W, 0, st, 1)
    a1 = g.attr(W, 50, g.TIME | g.RAW)
    rec = g.record(W, 9, W.p('QIIQQQIIQ', 0xffffffff81000000, 1, 1,
                             T0 + 1, 0, 0, 0, 0, 1))
    per = (4 << 20) // len(rec)
    block = subprocess.run(['zstd', '-q', '-c', '-19'], input=rec * per,
                           stdout=subprocess.PIPE, check=True).stdout
    z = g.record(W, 81, block)
    body = z * max(1, n // per)
    f = normal_file([(a0, 0, 0), (a1, 0, 0)], b'', body)
    # bit 27: COMPRESSED (version, type zstd, level, ratio, mmap_len)
    return f


def updates(n):
    f = b'PERFILE2' + W.p('Q', 16)
    parts = [f]
    for i in range(n):
        eid = 100 + i
        parts.append(g.record(W, 64, g.attr(W, 50, ST) + W.p('Q', eid)))
        name = b'ev%d' % i
        name += bytes(8 - len(name) % 8)
        parts.append(g.record(W, 78, W.p('QQ', 2, eid) + name))
    tdata = g.tracing_data(W, [g.KVM_EXIT])
    tpad = tdata + bytes(-len(tdata) % 8)
    parts.append(g.record(W, 66, W.p('II', len(tpad), 0)) + tpad)
    parts.append(one_sample(100))
    return b''.join(parts)


def tids(n, plain):
    # sample_id_all off: the COMMs are no samples' and go at once
    a = bytearray(g.attr(W, 50, ST))
    flags = struct.unpack_from('<Q', a, 40)[0] & ~(1 << 18)
    struct.pack_into('<Q', a, 40, flags)
    recs = []
    for k in range(1, 32768):
        tid = k if plain else (k << 17) & 0xffffffff
        recs.append(g.record(W, 3, W.p('II', tid, tid) + b'vcpu\0\0\0\0'))
    cycle = b''.join(recs)
    body = cycle * (n // 32767) + cycle[:24 * (n % 32767)] + one_sample(11)
    ids = W.p('Q', 11)
    return normal_file([(bytes(a), 0, 8)], ids, body)


def main():
    case, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else None
    if case == 'overlap':
        f = overlap(n or 2000)
    elif case == 'zqueue':
        f = zqueue(n or 3 << 20)
    elif case == 'updates':
        f = updates(n or 48000)
    elif case in ('tids', 'tids-plain'):
        f = tids(n or 1000000, case == 'tids-plain')
    else:
        sys.exit('unknown case ' + case)
    with open(out, 'wb') as o:
        o.write(f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
