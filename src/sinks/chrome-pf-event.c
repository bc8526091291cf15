// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Perfetto encoder's events (chrome-pf.c has the file's layout and
 * its tracks): each a TracePacket of a TrackEvent, written in one pass
 * into the output buffer. The common packet (its category and keys
 * interned before, its strings short) takes its constant runs a word at
 * a time and its integers' varints without a loop (pf-wire.h); a new name
 * is interned in it; anything else new goes through pf_packet_slow().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chrome-pf-int.h"
#include "chrome.h"
#include "outbuf.h"
#include "pf-wire.h"
#include "sink-util.h"
#include "timeline.h"

/* ts on the timeline in ns (as the JSON's µs, times 1000). */
static inline __attribute__((always_inline)) uint64_t
pf_ns(const struct tl_enc *e, uint64_t ts)
{
	if (e->time->ns)
		return sink_time_ns(e->time, ts);
	return ts > UINT64_MAX / 1000 ? UINT64_MAX : ts * 1000;
}

static uint8_t *pf_interned(uint8_t *p, const struct pf_new *nw, size_t n)
{
	static const unsigned field[] = {
		[PF_CAT] = PF_ID_CATEGORIES,
		[PF_NAME] = PF_ID_NAMES,
		[PF_KEY] = PF_ID_ANNOTATION_NAMES,
	};
	uint8_t *m, *e;
	size_t i;

	if (!n)
		return p;
	m = pf_open(&p, PF_PKT_INTERNED);
	for (i = 0; i < n; i++) {
		e = pf_open(&p, field[nw[i].kind]);
		p = pf_uint(p, PF_ID_IID, nw[i].iid);
		p = pf_str(p, PF_ID_NAME, nw[i].s, nw[i].len);
		p = pf_close(e, p);
	}
	return pf_close(m, p);
}

/* The bytes a packet of ev may take: this and PF_ARGNEED() of each arg. */
#define PF_EVNEED(ev) (160 + 6 * ((ev)->namelen + (ev)->catlen) + 4 * PF_NEST)
#define PF_ARGNEED(a)                                                        \
	(6 * (size_t)(a)->k->keylen + 32 + 3 * PF_NEST +                        \
	 ((a)->v.kind == VALUE_STR ? 3 * (a)->v.len : 0))

static inline __attribute__((always_inline)) uint8_t *
pf_value(uint8_t *p, const struct value *v, bool hex)
{
	if (hex && v->kind == VALUE_INT && !v->neg)
		return pf_uint(p, PF_DA_POINTER, v->u);
	switch (v->kind) {
	case VALUE_INT:
		if (v->neg && v->u)
			return pf_uint(p, PF_DA_INT, -v->u);
		return pf_uint(p, PF_DA_UINT, v->u);
	case VALUE_FLOAT:
		if (v->f != v->f || v->f - v->f != 0)	/* nan, inf: null */
			return p;
		return pf_double(p, PF_DA_DOUBLE, v->f);
	case VALUE_STR:
		return pf_str(p, PF_DA_STRING, v->s, v->len);
	case VALUE_NONE:
		break;
	}
	return p;
}

/*
 * A packet's time stamp: its tag and varint. Most come within 2 ms of
 * the last (the same bits from bit 21 up): the last's bytes but for the
 * low three, those from ts. Eleven bytes may be stored.
 */
static inline __attribute__((always_inline)) uint8_t *
pf_ts(struct tl_pf *f, uint8_t *p, uint64_t ts)
{
	unsigned n;

	*p++ = PF_PKT_TIMESTAMP << 3 | PF_VARINT;
	if (ts >> 21 == f->ts_hi) {
		pf_le64(p, f->ts_word | (ts & 0x7f) | (ts << 1 & 0x7f00) |
				   (ts << 2 & 0x7f0000));
		if (f->ts_len > 8) {
			p[8] = f->ts_tail[0];
			p[9] = f->ts_tail[1];
		}
		return p + f->ts_len;
	}
	n = pf_varint_len(ts);
	pf_varint_n(p, ts, n);
	if (ts >> 21) {
		/* four bytes or more: the low three have their top bit */
		f->ts_hi = ts >> 21;
		f->ts_word = pf_get_le64(p) & ~0x7f7f7full;
		f->ts_tail[0] = n > 8 ? p[8] : 0;
		f->ts_tail[1] = n > 9 ? p[9] : 0;
		f->ts_len = (uint8_t)n;
	}
	return p + n;
}

/* Strings the fast packet takes as args: up to this many bytes. */
#define PF_FASTSTR	64

/*
 * Copy len (<= PF_FASTSTR) bytes of s to d, eight at a time (the last
 * eight overlapping); true if they are ASCII (written as they are, else
 * the caller writes them again through sink_utf8_clean()).
 */
static inline bool pf_ascii(uint8_t *d, const char *s, size_t len)
{
	uint64_t w, any = 0;
	uint32_t h;
	size_t i;

	if (len >= 8) {
		for (i = 0; i + 8 < len; i += 8) {
			memcpy(&w, s + i, 8);
			memcpy(d + i, &w, 8);
			any |= w;
		}
		memcpy(&w, s + len - 8, 8);
		memcpy(d + len - 8, &w, 8);
		return !((any | w) & 0x8080808080808080ull);
	}
	if (len >= 4) {
		memcpy(&h, s, 4);
		memcpy(d, &h, 4);
		any = h;
		memcpy(&h, s + len - 4, 4);
		memcpy(d + len - 4, &h, 4);
		return !((any | h) & 0x80808080u);
	}
	for (i = 0; i < len; i++)
		any |= d[i] = (uint8_t)s[i];
	return !(any & 0x80);
}

/*
 * The InternedData of a new event name nw, short and ASCII (an unknown
 * id's): 62 len 12 len 08 iid 12 len name. NULL: not such a name (nothing
 * written that counts).
 */
static inline uint8_t *pf_new_name(uint8_t *p, const struct pf_new *nw)
{
	uint8_t *q;

	if (nw->len > PF_FASTSTR)
		return NULL;
	p[0] = PF_PKT_INTERNED << 3 | PF_LEN;
	p[2] = PF_ID_NAMES << 3 | PF_LEN;
	p[4] = PF_ID_IID << 3 | PF_VARINT;
	q = pf_varint(p + 5, nw->iid);
	q[0] = PF_ID_NAME << 3 | PF_LEN;
	q[1] = (uint8_t)nw->len;
	if (!pf_ascii(q + 2, nw->s, nw->len))
		return NULL;
	q += 2 + nw->len;
	/* an iid of up to 5 bytes: both lengths below 128 */
	p[1] = (uint8_t)(q - p - 2);
	p[3] = (uint8_t)(q - p - 4);
	return q;
}

/*
 * An arg of the fast packet, its key's iid given: with an iid below 128,
 * an integer's annotation (22 len 08 iid tag varint) in one store and its
 * varint (in the same store below 128), a short ASCII string's (22 len 08
 * iid 32 len bytes) in one and its copy; anything else through
 * pf_value(). NULL: a string too long for the fast packet.
 */
static inline __attribute__((always_inline)) uint8_t *
pf_fast_arg(uint8_t *p, const struct tl_arg *a, uint64_t iid)
{
	enum value_kind kind = a->v.kind;
	uint64_t u = a->v.u, tag = a->hex ? 0x38 : 0x18;
	size_t len = a->v.len;
	uint8_t *da;
	unsigned n;

	if (kind == VALUE_INT && iid < 0x80) {
		if (a->v.neg) {
			tag = u ? 0x20 : 0x18;
			u = -u;
		}
		if (u < 0x80) {
			pf_le64(p, 0x080422 | iid << 24 | tag << 32 | u << 40);
			return p + 6;
		}
		n = pf_varint_len(u);
		pf_le64(p, 0x080022 | (uint64_t)(3 + n) << 8 | iid << 24 |
				   tag << 32);
		return pf_varint_n(p + 5, u, n);
	}
	if (kind == VALUE_STR) {
		if (len > PF_FASTSTR)
			return NULL;
		if (iid < 0x80) {
			pf_le64(p, 0x080022 | (uint64_t)(4 + len) << 8 |
					   iid << 24 | 0x32ull << 32 |
					   (uint64_t)len << 40);
			if (pf_ascii(p + 6, a->v.s, len))
				return p + 6 + len;
		}
	}
	da = pf_open(&p, PF_TE_ANNOTATIONS);
	p = pf_uint(p, PF_DA_NAME_IID, iid);
	p = pf_value(p, &a->v, a->hex);
	return pf_close(da, p);
}

/*
 * The iid of arg i's key when neither ev keeps it (past its iids, or not
 * known yet) nor the hot keys have it: from the cache, then kept where it
 * can be. 0: not in the cache (not interned yet: the slow packet).
 */
static __attribute__((noinline)) uint32_t
pf_fast_key(struct tl_pf *f, const struct tl_event *ev, size_t i)
{
	const struct tl_key *k = ev->args[i].k;
	uint32_t iid;

	if (!pf_probe(f, PF_KEY, k, k->keylen, 0, &iid))
		return 0;
	if (i < ev->niids) {
		/* the same key from now on */
		ev->iids[i] = iid;
	} else {
		f->hot[PF_HOTSLOT(k)].k = k;
		f->hot[PF_HOTSLOT(k)].iid = iid;
	}
	return iid;
}

/*
 * A packet: a TrackEvent of type on ev's track at ts, with ev's name and
 * category if with_name, and nargs of its args. Here when nothing is new
 * but the name: the category and keys all in the caches (so interned
 * before), strings short; a new name is interned in the packet (an
 * unknown id's, most of them). The packet's constant runs go out a word
 * at a time: 0a len [62 len (interned)] 40 ts (50 01 68 02 | 50 01) 5a len
 * 48 type 58 uuid [18 cat 50 name] args, the lengths set at the end. Else
 * pf_packet_slow(), which starts over (what
 * was written is past the committed end). 0 or -ENOMEM.
 */
static int pf_packet_slow(struct tl_pf *f, const struct tl_event *ev,
			  unsigned type, uint64_t ts, uint64_t track,
			  bool with_name, size_t nargs, const struct pf_new *nw,
			  size_t nnew, uint32_t name_iid);

static inline __attribute__((always_inline)) int
pf_packet_fast(struct tl_pf *f, const struct tl_event *ev, unsigned type,
	       uint64_t ts, uint64_t track, bool with_name, size_t nargs)
{
	uint32_t name_iid = 0, cat_iid = 0, iid;
	size_t i, niids, nnew = 0, need;
	const struct tl_arg *args;
	uint8_t *p, *start, *te;
	struct pf_new nw[1];
	uint32_t *iids;

	if (type == PF_TYPE_COUNTER)
		goto slow;
	if (!with_name) {
	} else if (ev->name_iid && *ev->name_iid) {
		name_iid = *ev->name_iid;
	} else if (ev->name_kept ? pf_probe(f, PF_NAME, ev->name, ev->namelen,
					    ev->name_ver, &name_iid)
				 : pf_probe_name(f, ev->name, ev->namelen,
						 &name_iid)) {
		if (ev->name_iid)
			*ev->name_iid = name_iid;	/* the same name until
							 * it changes */
	} else if (ev->name_kept) {
		goto slow;
	} else {
		/* new (an unknown id's, most of the time), or not short:
		 * interned here, in this packet if new */
		if (pf_iid_name(f, ev->name, ev->namelen, nw, &nnew,
				&name_iid) < 0)
			return -ENOMEM;
		if (!name_iid)
			goto slow;
	}
	if (with_name && ev->cat_iid && *ev->cat_iid)
		cat_iid = *ev->cat_iid;
	else if (with_name && !pf_probe(f, PF_CAT, ev->cat, ev->catlen, 0,
					&cat_iid))
		goto slow;
	else if (with_name && ev->cat_iid)
		*ev->cat_iid = cat_iid;
	need = 160 + 4 * PF_NEST + nargs * (32 + 3 * PF_NEST + 3 * PF_FASTSTR);
	if (nnew)
		need += 32 + 3 * PF_NEST + 3 * ev->namelen;
	p = start = (uint8_t *)outbuf_reserve(f->enc.out, need);
	if (!p)
		return -ENOMEM;
	p[0] = PF_TRACE_PACKET << 3 | PF_LEN;
	p += 2;
	if (nnew) {
		uint8_t *q = pf_new_name(p, nw);

		p = q ? q : pf_interned(p, nw, nnew);
	}
	p = pf_ts(f, p, ts);
	/* sequence 1; every iid here is one (name, category, keys): the
	 * flags; the track event's tag, its length (later) and type's tag */
	if (with_name || nargs) {
		pf_le64(p, PF_WT(PF_PKT_SEQ_ID, PF_VARINT) | PF_SEQ << 8 |
				   PF_WT(PF_PKT_SEQ_FLAGS, PF_VARINT) << 16 |
				   (uint64_t)PF_SEQ_NEEDS << 24 |
				   PF_WT(PF_PKT_TRACK_EVENT, PF_LEN) << 32 |
				   PF_WT(PF_TE_TYPE, PF_VARINT) << 48 |
				   (uint64_t)type << 56);
		te = p + 5;
		p += 8;
	} else {
		pf_le64(p, PF_WT(PF_PKT_SEQ_ID, PF_VARINT) | PF_SEQ << 8 |
				   PF_WT(PF_PKT_TRACK_EVENT, PF_LEN) << 16 |
				   PF_WT(PF_TE_TYPE, PF_VARINT) << 32 |
				   (uint64_t)type << 40);
		te = p + 3;
		p += 6;
	}
	p[0] = PF_TE_TRACK_UUID << 3 | PF_VARINT;
	if (track < 0x80) {
		p[1] = (uint8_t)track;
		p += 2;
	} else {
		p = pf_varint(p + 1, track);
	}
	if (with_name && (cat_iid | name_iid) < 0x80) {
		pf_le32(p, (uint32_t)(PF_WT(PF_TE_CATEGORY_IIDS, PF_VARINT) |
				      cat_iid << 8 |
				      PF_WT(PF_TE_NAME_IID, PF_VARINT) << 16 |
				      (uint64_t)name_iid << 24));
		p += 4;
	} else if (with_name) {
		p = pf_uint(p, PF_TE_CATEGORY_IIDS, cat_iid);
		p = pf_uint(p, PF_TE_NAME_IID, name_iid);
	}
	/* the event's fields loaded once (the stores through p may alias
	 * them, as far as the compiler knows) */
	args = ev->args;
	iids = ev->iids;
	niids = ev->niids < nargs ? ev->niids : nargs;
	for (i = 0; i < nargs; i++) {
		iid = i < niids ? iids[i] : 0;
		if (!iid && !pf_hot_key(f, args[i].k, &iid) &&
		    !(iid = pf_fast_key(f, ev, i)))
			goto slow;
		p = pf_fast_arg(p, &args[i], iid);
		if (!p)
			goto slow;
	}
	if (p - start - 2 < 0x80) {
		start[1] = (uint8_t)(p - start - 2);
		*te = (uint8_t)(p - te - 1);
	} else {
		p = pf_close(te, p);
		p = pf_close(start + 1, p);
	}
	outbuf_commit(f->enc.out, (size_t)(p - start));
	f->enc.bytes += (uint64_t)(p - start);
	return 0;
slow:
	/* nothing committed; the name, if new, goes in the slow packet */
	return pf_packet_slow(f, ev, type, ts, track, with_name, nargs, nw,
			      nnew, name_iid);
}

/*
 * pf_packet_fast() when something is new (but the name alone) or long: the
 * new strings interned in the packet (its own function: the common case
 * keeps a small stack frame); pre: the npre new strings the fast packet
 * found first (the name, name_iid, if not 0: known).
 */
static __attribute__((noinline)) int
pf_packet_slow(struct tl_pf *f, const struct tl_event *ev, unsigned type,
	       uint64_t ts, uint64_t track, bool with_name, size_t nargs,
	       const struct pf_new *pre, size_t npre, uint32_t name_iid)
{
	struct pf_new nw[3 + CHROME_MAXFIELDS + 2];
	uint32_t cat_iid = 0, key_iid[CHROME_MAXFIELDS + 2];
	size_t nnew = npre, i, need = PF_EVNEED(ev);
	bool needs = false;
	uint8_t *p, *start, *pkt, *te;

	memcpy(nw, pre, npre * sizeof(*nw));
	if (with_name && type != PF_TYPE_COUNTER &&
	    ((!name_iid &&
	      pf_iid(f, PF_NAME, ev->name, ev->namelen, ev->name_kept,
		     ev->name_ver, nw, &nnew, &name_iid) < 0) ||
	     pf_iid(f, PF_CAT, ev->cat, ev->catlen, true, 0, nw, &nnew,
		    &cat_iid) < 0))
		return -ENOMEM;
	needs = name_iid || cat_iid;
	for (i = 0; i < nargs; i++) {
		const struct tl_arg *a = &ev->args[i];

		if (pf_iid_at(f, PF_KEY, a->k, a->k->key, a->k->keylen, true, 0,
			      nw, &nnew, &key_iid[i]) < 0)
			return -ENOMEM;
		needs |= key_iid[i] != 0;
		need += PF_ARGNEED(a);
	}
	p = start = (uint8_t *)outbuf_reserve(f->enc.out, need);
	if (!p)
		return -ENOMEM;
	pkt = pf_open(&p, PF_TRACE_PACKET);
	p = pf_interned(p, nw, nnew);
	p = pf_uint(p, PF_PKT_TIMESTAMP, ts);
	p = pf_uint(p, PF_PKT_SEQ_ID, PF_SEQ);
	if (needs)
		p = pf_uint(p, PF_PKT_SEQ_FLAGS, PF_SEQ_NEEDS);
	te = pf_open(&p, PF_PKT_TRACK_EVENT);
	p = pf_uint(p, PF_TE_TYPE, type);
	p = pf_uint(p, PF_TE_TRACK_UUID, track);
	if (with_name && type != PF_TYPE_COUNTER) {
		if (cat_iid)
			p = pf_uint(p, PF_TE_CATEGORY_IIDS, cat_iid);
		else
			p = pf_str(p, PF_TE_CATEGORIES, ev->cat, ev->catlen);
		if (name_iid)
			p = pf_uint(p, PF_TE_NAME_IID, name_iid);
		else
			p = pf_str(p, PF_TE_NAME, ev->name, ev->namelen);
	}
	if (type == PF_TYPE_COUNTER)
		p = pf_double(p, PF_TE_DOUBLE_COUNTER, ev->value);
	for (i = 0; i < nargs; i++) {
		const struct tl_arg *a = &ev->args[i];
		uint8_t *da = pf_open(&p, PF_TE_ANNOTATIONS);

		if (key_iid[i])
			p = pf_uint(p, PF_DA_NAME_IID, key_iid[i]);
		else
			p = pf_str(p, PF_DA_NAME, a->k->key, a->k->keylen);
		p = pf_value(p, &a->v, a->hex);
		p = pf_close(da, p);
	}
	p = pf_close(te, p);
	p = pf_close(pkt, p);
	outbuf_commit(f->enc.out, (size_t)(p - start));
	f->enc.bytes += (uint64_t)(p - start);
	return 0;
}

/*
 * A slice's END after its BEGIN took the args: 0a len 40 ts 50 01 5a len
 * 48 02 58 uuid (pf_packet_fast() of it without a name or args).
 */
static int pf_end_bare(struct tl_pf *f, uint64_t ts, uint64_t track)
{
	uint8_t *p = (uint8_t *)outbuf_reserve(f->enc.out, 48), *start = p,
		*te;

	if (!p)
		return -ENOMEM;
	p[0] = PF_TRACE_PACKET << 3 | PF_LEN;
	p = pf_ts(f, p + 2, ts);
	pf_le64(p, PF_WT(PF_PKT_SEQ_ID, PF_VARINT) | PF_SEQ << 8 |
			   PF_WT(PF_PKT_TRACK_EVENT, PF_LEN) << 16 |
			   PF_WT(PF_TE_TYPE, PF_VARINT) << 32 |
			   (uint64_t)PF_TYPE_END << 40 |
			   PF_WT(PF_TE_TRACK_UUID, PF_VARINT) << 48);
	te = p + 3;
	p = pf_varint(p + 7, track);
	/* 40 bytes at most: both lengths below 128 */
	*te = (uint8_t)(p - te - 1);
	start[1] = (uint8_t)(p - start - 2);
	outbuf_commit(f->enc.out, (size_t)(p - start));
	f->enc.bytes += (uint64_t)(p - start);
	return 0;
}

/*
 * The time a BEGIN at a on ev's track is written at: a, or before what
 * began at a already for an outer slice. -ENOMEM.
 */
static int pf_begin_at(struct tl_pf *f, const struct tl_event *ev,
		       uint64_t a, uint64_t *at)
{
	struct pf_track *t;
	void *grown = f->tracks;

	if (sink_grow(&grown, &f->ntracks, ev->tid, sizeof(*f->tracks)) < 0)
		return -ENOMEM;
	f->tracks = grown;
	t = &f->tracks[ev->tid];
	*at = a;
	if (t->any && ev->outer && a <= t->first && a >= t->first_written)
		*at = t->first_written ? t->first_written - 1 : 0;
	if (!t->any || a < t->first)
		t->first = a;
	if (!t->any || *at < t->first_written)
		t->first_written = *at;
	t->any = true;
	return 0;
}

/*
 * One event: a packet of a TrackEvent on ev's track, with ev's name,
 * category and args (an END: its args only); a slice ("X") a BEGIN with
 * them and a bare END.
 */
int pf_event(struct tl_enc *e, const struct tl_event *ev)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);
	uint64_t a = pf_ns(e, ev->ts), b = 0, track = ev->tid;
	bool with_name = true, end = false;
	size_t nargs = ev->nargs;
	unsigned type;
	int ret;

	/* instants first: most events, and a jump through the switch's
	 * table was a mispredicted one in four */
	if (ev->ph == TL_INSTANT) {
		type = PF_TYPE_INSTANT;
		goto write;
	}
	switch (ev->ph) {
	case TL_SLICE:
		b = pf_ns(e, ev->end);
		if (b < a)
			b = a;
		if (ev->opened) {
			type = PF_TYPE_END;
			with_name = false;
			a = b;
			break;
		}
		if (pf_begin_at(f, ev, a, &a) < 0)
			return -ENOMEM;
		type = PF_TYPE_BEGIN;
		end = true;
		break;
	case TL_OPEN:
	case TL_BEGIN:
		if (pf_begin_at(f, ev, a, &a) < 0)
			return -ENOMEM;
		type = PF_TYPE_BEGIN;
		break;
	case TL_END:
		type = PF_TYPE_END;
		with_name = false;
		break;
	case TL_INSTANT:
		type = PF_TYPE_INSTANT;
		break;
	case TL_COUNTER:
		if (pf_counter_track(f, ev, &track) < 0)
			return -ENOMEM;
		type = PF_TYPE_COUNTER;
		break;
	default:
		return 0;
	}
write:
	if (nargs > CHROME_MAXFIELDS + 2)
		nargs = CHROME_MAXFIELDS + 2;
	ret = pf_packet_fast(f, ev, type, a, track, with_name, nargs);
	if (ret < 0 || !end)
		return ret;
	/* the args went with the BEGIN */
	return pf_end_bare(f, b, track);
}
