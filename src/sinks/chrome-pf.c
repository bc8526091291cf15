// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline (timeline.h) as a Perfetto trace: a Trace message, that is
 * a stream of TracePackets, each written as the event comes.
 *
 *  - Every packet is on one sequence (trusted_packet_sequence_id 1); the
 *    first says SEQ_INCREMENTAL_STATE_CLEARED, every packet that uses an
 *    interned id says SEQ_NEEDS_INCREMENTAL_STATE.
 *  - Event names, categories and arg names are interned: the packet that
 *    first uses one carries it in its InternedData (iid from 1, per
 *    kind); beyond PF_MAXIIDS of a kind, a name is written out instead.
 *  - Chrome's process P is a track (uuid PF_PROC + P) with a
 *    ProcessDescriptor; its thread T a track (uuid T) with a
 *    ThreadDescriptor (pid P, tid T, the same numbers as the JSON); a
 *    counter a track with a CounterDescriptor in its process. Each is
 *    described before its first event.
 *  - A slice ("X") is a TYPE_SLICE_BEGIN and a TYPE_SLICE_END: both
 *    when the slice ends, or the BEGIN when it opens (TL_OPEN: the CPU
 *    tracks, where a handler nests in the task) and the END, with the
 *    args, when it ends; "B" and "E" each one packet; an instant
 *    TYPE_INSTANT; a counter sample TYPE_COUNTER (double_counter_value).
 *    Args are debug annotations: numbers as numbers, strings as strings,
 *    addresses as pointer values (the JSON's "0x…" strings).
 *  - Perfetto pairs BEGIN and END per track in time order, then file
 *    order. Slices open in file order but for a call whose entry came
 *    before the trace (outer), written when it ends: it begins at the
 *    trace's first stamp, and if a slice written before it began there
 *    too, it begins 1 ns before (and the next such 1 ns before that), so
 *    that it encloses them.
 *  - Time stamps are ns (ts of the JSON times 1000, on the same rounding).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "outbuf.h"
#include "pf-wire.h"
#include "sink-util.h"
#include "timeline.h"

#define PF_MAXIIDS	65536		/* names interned per kind */
#define PF_PROC		(1ull << 40)	/* uuid of process track P: + P */
#define PF_COUNTER	(2ull << 40)	/* uuid of counter track N: + N */
#define PF_SEQ		1
#define PF_MAXCOUNTERS	4096
/* pf_packet(): a TYPE_SLICE_END without ev's args */
#define PF_TYPE_END_BARE	(0x100 | PF_TYPE_END)
#define PF_CACHE	1024		/* iids of kept strings, by address */
#define PF_SHORTS	256		/* iids of short names, by content */
#define PF_BLOOM	(1u << 19)	/* bits of the names' filter (64 KiB) */
#define PF_PEND		64		/* new names before the map takes them */
#define PF_HOT		4		/* keys in tl_pf.hot */

enum pf_kind {
	PF_CAT = 0,
	PF_NAME,
	PF_KEY,
};

/* What was written on one track: its earliest BEGINs. */
struct pf_track {
	bool any;
	uint64_t first;		/* the earliest BEGIN's time, as the JSON's */
	uint64_t first_written;	/* the earliest time written (outer: less) */
};

/* The iid of a string that stays at its address (keys, most names). */
struct pf_cached {
	const void *s;		/* borrowed: the string, or an arg's key */
	uint64_t tag;		/* PF_TAG(): its length, kind and version */
	uint32_t iid;
};

/* One word for a string's length (< 2^24), kind and tl_event.name_ver. */
#define PF_TAG(len, kind, ver)                                               \
	((uint64_t)(len) << 40 | (uint64_t)(kind) << 32 | (ver))

/*
 * The iid of a short name that does not stay (an exit reason's number, an
 * id's hex); len 0: an empty slot.
 */
struct pf_short {
	uint64_t w0, w1;	/* its first and last eight bytes */
	uint32_t len;
	uint32_t iid;
};

/* The slot of a name of len bytes, its first and last eight w0 and w1. */
#define PF_SHORTHASH(w0, w1, len)                                            \
	((((w0) ^ (w1) * 0xff51afd7ed558ccdull ^ (len)) *                     \
	  0x9e3779b97f4a7c15ull) >> 56)

struct tl_pf {
	struct tl_enc enc;
	struct pf_cached cache[PF_CACHE];
	struct pf_short shorts[PF_SHORTS];
	struct pf_track *tracks;	/* owned: by thread (tid) */
	uint32_t ntracks;
	struct sink_map iids;		/* hash of (kind, string) -> iid */
	/*
	 * Names: most are new (an unknown id's), and looking one up in iids
	 * (megabytes) was a miss of the caches each. A filter of the names'
	 * hashes says which are new without it; new ones wait in pend and
	 * go into iids PF_PEND at a time, their slots loaded together.
	 */
	uint64_t *bloom;		/* owned: PF_BLOOM bits, or NULL */
	struct sink_map_slot pend[PF_PEND];
	uint32_t npend;
	uint32_t niids[3];		/* iids given, per kind */
	/*
	 * The iids of the last keys found past an event's iids (pid, cpu, an
	 * exit's reason and rip: the same few keys at every event), by the
	 * key's address (a key stays unchanged until the run ends): one
	 * line, before the cache's hash and its load of the key's length.
	 */
	struct pf_hotkey {
		const struct tl_key *k;
		uint32_t iid;
	} hot[PF_HOT];
	uint32_t hot_next;
	struct sink_map procs;		/* processes described */
	struct sink_map counters;	/* hash of a counter's name -> index */
	uint32_t ncounters;
};

/* A new interned string of the packet being written. */
struct pf_new {
	uint8_t kind;
	uint32_t iid;
	const char *s;
	size_t len;
};

/* A 64-bit hash of (kind, s), eight bytes at a time. */
static uint64_t pf_hash(unsigned kind, const char *s, size_t len)
{
	uint64_t h = (kind + 1) * 0x9e3779b97f4a7c15ull ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (len) {
		w = 0;
		memcpy(&w, s, len);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
		h ^= h >> 32;
	}
	return h * 0x9e3779b97f4a7c15ull;
}

/* The names' filter's word of hash h, and the two bits h sets in it. */
static inline uint64_t *pf_bloom_word(uint64_t *b, uint64_t h, uint64_t *bits)
{
	*bits = 1ull << (h >> 52 & 63) | 1ull << (h >> 58);
	return &b[h & (PF_BLOOM / 64 - 1)];
}

static inline bool pf_bloom_has(uint64_t *b, uint64_t h)
{
	uint64_t bits, *w = pf_bloom_word(b, h, &bits);

	return (*w & bits) == bits;
}

static inline void pf_bloom_add(uint64_t *b, uint64_t h)
{
	uint64_t bits, *w = pf_bloom_word(b, h, &bits);

	*w |= bits;
}

/* The waiting names into iids: their slots prefetched first. */
static int pf_pend_flush(struct tl_pf *f)
{
	const struct sink_map *m = &f->iids;
	uint32_t i;

	for (i = 0; m->cap && i < f->npend; i++)
		sink_prefetch(&m->v[sink_map_slot(f->pend[i].key, m->cap)]);
	for (i = 0; i < f->npend; i++)
		if (sink_map_add(&f->iids, f->pend[i].key, f->pend[i].val) < 0)
			return -ENOMEM;
	f->npend = 0;
	return 0;
}

/* The iid of the hash h of a name if known, else SINK_MAP_EMPTY. */
static uint32_t pf_name_find(struct tl_pf *f, uint64_t h)
{
	uint32_t i;

	if (!pf_bloom_has(f->bloom, h))
		return SINK_MAP_EMPTY;
	for (i = 0; i < f->npend; i++)
		if (f->pend[i].key == h)
			return f->pend[i].val;
	return sink_map_find(&f->iids, h);
}

/*
 * The iid of s (kind), given now if new (and added to nw); 0: not
 * interned (past PF_MAXIIDS), write it out. -ENOMEM.
 * Strings are told apart by a 64-bit hash.
 */
static int pf_iid_slow(struct tl_pf *f, enum pf_kind kind, const char *s,
		       size_t len, struct pf_new *nw, size_t *nnew,
		       uint32_t *iid)
{
	uint64_t h = pf_hash(kind, s, len);
	bool name = kind == PF_NAME && f->bloom;
	uint32_t i = name ? pf_name_find(f, h) : sink_map_find(&f->iids, h);

	if (i != SINK_MAP_EMPTY) {
		*iid = i;
		return 0;
	}
	*iid = 0;
	if (f->niids[kind] >= PF_MAXIIDS)
		return 0;
	i = ++f->niids[kind];
	if (name) {
		pf_bloom_add(f->bloom, h);
		f->pend[f->npend].key = h;
		f->pend[f->npend++].val = i;
		if (f->npend == PF_PEND && pf_pend_flush(f) < 0)
			return -ENOMEM;
	} else if (sink_map_add(&f->iids, h, i) < 0) {
		return -ENOMEM;
	}
	nw[*nnew].kind = (uint8_t)kind;
	nw[*nnew].iid = i;
	nw[*nnew].s = s;
	nw[*nnew].len = len;
	(*nnew)++;
	*iid = i;
	return 0;
}

/*
 * pf_iid_slow() for a name that does not stay: first by its bytes when
 * 8 to 16 long (an exit reason's number, an unknown id: a few dozen
 * recur), as its first and last eight.
 */
static __attribute__((noinline)) int
pf_iid_name(struct tl_pf *f, const char *s, size_t len, struct pf_new *nw,
	    size_t *nnew, uint32_t *iid)
{
	uint64_t w0, w1;
	struct pf_short *sh;
	size_t had;
	int ret;

	if (len < 8 || len > 16)
		return pf_iid_slow(f, PF_NAME, s, len, nw, nnew, iid);
	memcpy(&w0, s, 8);
	memcpy(&w1, s + len - 8, 8);
	sh = &f->shorts[PF_SHORTHASH(w0, w1, len)];
	if (sh->len == len && sh->w0 == w0 && sh->w1 == w1) {
		*iid = sh->iid;
		return 0;
	}
	had = *nnew;
	ret = pf_iid_slow(f, PF_NAME, s, len, nw, nnew, iid);
	/* kept from its second sight on: ids seen once do not evict */
	if (ret == 0 && *iid && *nnew == had) {
		sh->w0 = w0;
		sh->w1 = w1;
		sh->len = (uint32_t)len;
		sh->iid = *iid;
	}
	return ret;
}

/*
 * pf_iid_slow(), first through the cache when s stays at its address
 * (kept) and is interned; the cache knows it by id (s, or an arg's key's
 * struct tl_key: one load less an arg).
 */
static inline int pf_iid_at(struct tl_pf *f, enum pf_kind kind,
			    const void *id, const char *s, size_t len,
			    bool kept, uint32_t ver, struct pf_new *nw,
			    size_t *nnew, uint32_t *iid)
{
	uintptr_t a = (uintptr_t)id;
	struct pf_cached *c = &f->cache[(a ^ a >> 10 ^ kind) & (PF_CACHE - 1)];
	int ret;

	/* a kept string stays unchanged at s: only its length is compared
	 * (cached below 2^24; names, categories and keys are far shorter) */
	if (kept && c->s == id && c->tag == PF_TAG(len, kind, ver)) {
		*iid = c->iid;
		return 0;
	}
	if (!kept && kind == PF_NAME)
		return pf_iid_name(f, s, len, nw, nnew, iid);
	ret = pf_iid_slow(f, kind, s, len, nw, nnew, iid);
	if (ret == 0 && kept && *iid && len < 1u << 24) {
		c->s = id;
		c->tag = PF_TAG(len, kind, ver);
		c->iid = *iid;
	}
	return ret;
}

static inline int pf_iid(struct tl_pf *f, enum pf_kind kind, const char *s,
			 size_t len, bool kept, uint32_t ver, struct pf_new *nw,
			 size_t *nnew, uint32_t *iid)
{
	return pf_iid_at(f, kind, s, s, len, kept, ver, nw, nnew, iid);
}

/* The iid of kept s (kind) if the cache holds it (pf_iid()'s first step). */
static inline bool pf_probe(struct tl_pf *f, enum pf_kind kind, const void *s,
			    size_t len, uint32_t ver, uint32_t *iid)
{
	uintptr_t a = (uintptr_t)s;
	struct pf_cached *c = &f->cache[(a ^ a >> 10 ^ kind) & (PF_CACHE - 1)];

	if (c->s != s || c->tag != PF_TAG(len, kind, ver))
		return false;
	*iid = c->iid;
	return true;
}

/* The iid of key k if f->hot holds it. */
static inline bool pf_hot_key(const struct tl_pf *f, const struct tl_key *k,
			      uint32_t *iid)
{
	for (unsigned j = 0; j < PF_HOT; j++) {
		if (f->hot[j].k == k) {
			*iid = f->hot[j].iid;
			return true;
		}
	}
	return false;
}

/* The iid of a name that does not stay if PF_SHORTS holds it. */
static inline bool pf_probe_name(struct tl_pf *f, const char *s, size_t len,
				 uint32_t *iid)
{
	uint64_t w0, w1;
	struct pf_short *sh;

	if (len < 8 || len > 16)
		return false;
	memcpy(&w0, s, 8);
	memcpy(&w1, s + len - 8, 8);
	sh = &f->shorts[PF_SHORTHASH(w0, w1, len)];
	if (sh->len != len || sh->w0 != w0 || sh->w1 != w1)
		return false;
	*iid = sh->iid;
	return true;
}

/* A string field, as valid UTF-8. */
static uint8_t *pf_str(uint8_t *p, unsigned field, const char *s, size_t len)
{
	uint8_t *m = pf_open(&p, field);
	uint64_t w0, w1;

	if (len >= 8 && len <= 16) {
		/* ASCII as it is: an id's hex, an exit reason's number */
		memcpy(&w0, s, 8);
		memcpy(&w1, s + len - 8, 8);
		if (!((w0 | w1) & 0x8080808080808080ull)) {
			memcpy(p, &w0, 8);
			memcpy(p + len - 8, &w1, 8);
			*m = (uint8_t)len;
			return p + len;
		}
	}
	p += sink_utf8_clean((char *)p, s, len);
	return pf_close(m, p);
}

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

/* The track of a counter named as ev, described on first sight. */
static int pf_counter_track(struct tl_pf *f, const struct tl_event *ev,
			    uint64_t *uuid);

/* Strings the fast packet takes as args: up to this many bytes. */
#define PF_FASTSTR	64

/*
 * pf_packet() when nothing is new: the name, category and keys all in
 * the caches (so interned before), strings short. 1: done, 0: not
 * (nothing written: what was is past the committed end), -ENOMEM.
 */
static int pf_packet_fast(struct tl_pf *f, const struct tl_event *ev,
			  unsigned type, uint64_t ts, uint64_t track,
			  bool with_name, size_t nargs)
{
	uint32_t name_iid = 0, cat_iid = 0, iid;
	uint8_t *p, *start, *pkt, *te, *da;
	size_t i;

	if (type == PF_TYPE_COUNTER || nargs > CHROME_MAXFIELDS + 2)
		return 0;
	if (with_name && ev->name_iid && *ev->name_iid) {
		name_iid = *ev->name_iid;
	} else if (with_name &&
		   !(ev->name_kept ? pf_probe(f, PF_NAME, ev->name, ev->namelen,
					       ev->name_ver, &name_iid)
				   : pf_probe_name(f, ev->name, ev->namelen,
						   &name_iid))) {
		return 0;
	} else if (with_name && ev->name_iid) {
		*ev->name_iid = name_iid;	/* the same name until it changes */
	}
	if (with_name && ev->cat_iid && *ev->cat_iid)
		cat_iid = *ev->cat_iid;
	else if (with_name && !pf_probe(f, PF_CAT, ev->cat, ev->catlen, 0,
					&cat_iid))
		return 0;
	else if (with_name && ev->cat_iid)
		*ev->cat_iid = cat_iid;
	p = start = (uint8_t *)outbuf_reserve(
		f->enc.out, 160 + 4 * PF_NEST +
				    nargs * (32 + 3 * PF_NEST + 3 * PF_FASTSTR));
	if (!p)
		return -ENOMEM;
	pkt = pf_open(&p, PF_TRACE_PACKET);
	p = pf_uint(p, PF_PKT_TIMESTAMP, ts);
	p = pf_uint(p, PF_PKT_SEQ_ID, PF_SEQ);
	/* every iid here is one: name, category, keys */
	if (with_name || nargs)
		p = pf_uint(p, PF_PKT_SEQ_FLAGS, PF_SEQ_NEEDS);
	te = pf_open(&p, PF_PKT_TRACK_EVENT);
	p = pf_uint(p, PF_TE_TYPE, type);
	p = pf_uint(p, PF_TE_TRACK_UUID, track);
	if (with_name) {
		p = pf_uint(p, PF_TE_CATEGORY_IIDS, cat_iid);
		p = pf_uint(p, PF_TE_NAME_IID, name_iid);
	}
	for (i = 0; i < nargs; i++) {
		const struct tl_arg *a = &ev->args[i];

		if (i < ev->niids && ev->iids[i]) {
			iid = ev->iids[i];
		} else if (!pf_hot_key(f, a->k, &iid)) {
			if (!pf_probe(f, PF_KEY, a->k, a->k->keylen, 0, &iid))
				return 0;
			if (i < ev->niids) {
				/* the same key from now on */
				ev->iids[i] = iid;
			} else {
				f->hot[f->hot_next].k = a->k;
				f->hot[f->hot_next].iid = iid;
				f->hot_next = (f->hot_next + 1) % PF_HOT;
			}
		}
		da = pf_open(&p, PF_TE_ANNOTATIONS);
		p = pf_uint(p, PF_DA_NAME_IID, iid);
		if (a->v.kind == VALUE_STR) {
			if (a->v.len > PF_FASTSTR)
				return 0;
			p = pf_value(p, &a->v, a->hex);
			p = pf_close(da, p);
		} else {
			/* iid and a number: 15 bytes at most */
			p = pf_value(p, &a->v, a->hex);
			*da = (uint8_t)(p - da - 1);
		}
	}
	p = pf_close(te, p);
	p = pf_close(pkt, p);
	outbuf_commit(f->enc.out, (size_t)(p - start));
	f->enc.bytes += (uint64_t)(p - start);
	return 1;
}

/*
 * pf_packet() when something is new or long: the new strings interned in
 * the packet (its own function: pf_packet()'s common case keeps a small
 * stack frame).
 */
static __attribute__((noinline)) int
pf_packet_slow(struct tl_pf *f, const struct tl_event *ev, unsigned type,
	       uint64_t ts, uint64_t track, bool with_name, size_t nargs)
{
	struct pf_new nw[3 + CHROME_MAXFIELDS + 2];
	uint32_t name_iid = 0, cat_iid = 0, key_iid[CHROME_MAXFIELDS + 2];
	size_t nnew = 0, i, need = PF_EVNEED(ev);
	bool needs = false;
	uint8_t *p, *start, *pkt, *te;

	if (with_name && type != PF_TYPE_COUNTER &&
	    (pf_iid(f, PF_NAME, ev->name, ev->namelen, ev->name_kept,
		    ev->name_ver, nw, &nnew, &name_iid) < 0 ||
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
 * One packet: a TrackEvent of type on ev's track at ts, with ev's name,
 * category and args if with_name; an END with ev's args, but for
 * PF_TYPE_END_BARE (a slice's END after its BEGIN took them).
 */
static int pf_packet(struct tl_pf *f, const struct tl_event *ev,
		     unsigned type, uint64_t ts, uint64_t track,
		     bool with_name)
{
	size_t nargs = with_name || type == PF_TYPE_END ? ev->nargs : 0;
	int ret;

	type &= 0xff;
	if (nargs > CHROME_MAXFIELDS + 2)
		nargs = CHROME_MAXFIELDS + 2;
	ret = pf_packet_fast(f, ev, type, ts, track, with_name, nargs);
	if (ret)
		return ret < 0 ? ret : 0;
	return pf_packet_slow(f, ev, type, ts, track, with_name, nargs);
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

static int pf_event(struct tl_enc *e, const struct tl_event *ev)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);
	uint64_t a = pf_ns(e, ev->ts), b, track = ev->tid;

	switch (ev->ph) {
	case TL_SLICE:
		b = pf_ns(e, ev->end);
		if (b < a)
			b = a;
		if (ev->opened)
			return pf_packet(f, ev, PF_TYPE_END, b, track, false);
		if (pf_begin_at(f, ev, a, &a) < 0 ||
		    pf_packet(f, ev, PF_TYPE_BEGIN, a, track, true) < 0)
			return -ENOMEM;
		/* the args went with the BEGIN */
		return pf_packet(f, ev, PF_TYPE_END_BARE, b, track, false);
	case TL_OPEN:
	case TL_BEGIN:
		if (pf_begin_at(f, ev, a, &a) < 0)
			return -ENOMEM;
		return pf_packet(f, ev, PF_TYPE_BEGIN, a, track, true);
	case TL_END:
		return pf_packet(f, ev, PF_TYPE_END, a, track, false);
	case TL_INSTANT:
		return pf_packet(f, ev, PF_TYPE_INSTANT, a, track, true);
	case TL_COUNTER:
		if (pf_counter_track(f, ev, &track) < 0)
			return -ENOMEM;
		return pf_packet(f, ev, PF_TYPE_COUNTER, a, track, true);
	}
	return 0;
}

/* A TrackDescriptor packet; name may be NULL. */
static int pf_track(struct tl_pf *f, uint64_t uuid, uint64_t parent,
		    unsigned what, uint32_t pid, uint32_t tid,
		    const char *name, size_t len)
{
	uint8_t *p = (uint8_t *)outbuf_reserve(f->enc.out,
					       3 * len + 96 + 4 * PF_NEST),
		*start = p, *pkt, *td, *d;

	if (!p)
		return -ENOMEM;
	pkt = pf_open(&p, PF_TRACE_PACKET);
	td = pf_open(&p, PF_PKT_TRACK_DESC);
	p = pf_uint(p, PF_TD_UUID, uuid);
	if (parent)
		p = pf_uint(p, PF_TD_PARENT, parent);
	switch (what) {
	case PF_TD_PROCESS:
		d = pf_open(&p, PF_TD_PROCESS);
		p = pf_uint(p, PF_PD_PID, pid);
		if (name)
			p = pf_str(p, PF_PD_NAME, name, len);
		p = pf_close(d, p);
		break;
	case PF_TD_THREAD:
		d = pf_open(&p, PF_TD_THREAD);
		p = pf_uint(p, PF_THD_PID, pid);
		p = pf_uint(p, PF_THD_TID, tid);
		p = pf_str(p, PF_THD_NAME, name, len);
		p = pf_close(d, p);
		break;
	default:
		p = pf_str(p, PF_TD_NAME, name, len);
		d = pf_open(&p, PF_TD_COUNTER);
		p = pf_bytes(p, PF_CD_CATEGORIES, "counters", 8);
		p = pf_close(d, p);
		break;
	}
	p = pf_close(td, p);
	p = pf_close(pkt, p);
	outbuf_commit(f->enc.out, (size_t)(p - start));
	f->enc.bytes += (uint64_t)(p - start);
	return 0;
}

static int pf_process(struct tl_enc *e, uint32_t pid, const char *name,
		      size_t len, int64_t sort)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);

	(void)sort;
	if (sink_map_find(&f->procs, pid) == SINK_MAP_EMPTY &&
	    sink_map_add(&f->procs, pid, pid) < 0)
		return -ENOMEM;
	return pf_track(f, PF_PROC + pid, 0, PF_TD_PROCESS, pid, 0, name, len);
}

static int pf_thread(struct tl_enc *e, uint32_t pid, uint32_t tid,
		     const char *name, size_t len, int64_t sort)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);

	(void)sort;
	return pf_track(f, tid, 0, PF_TD_THREAD, pid, tid, name, len);
}

static int pf_counter_track(struct tl_pf *f, const struct tl_event *ev,
			    uint64_t *uuid)
{
	uint64_t h = pf_hash(PF_KEY + 1, ev->name, ev->namelen);
	uint32_t i = sink_map_find(&f->counters, h);

	if (i != SINK_MAP_EMPTY) {
		*uuid = PF_COUNTER + i;
		return 0;
	}
	if (f->ncounters >= PF_MAXCOUNTERS) {
		/* beyond the cap: the last one's track */
		*uuid = PF_COUNTER + f->ncounters - 1;
		return 0;
	}
	i = f->ncounters++;
	*uuid = PF_COUNTER + i;
	if (sink_map_find(&f->procs, ev->pid) == SINK_MAP_EMPTY &&
	    (sink_map_add(&f->procs, ev->pid, ev->pid) < 0 ||
	     pf_track(f, PF_PROC + ev->pid, 0, PF_TD_PROCESS, ev->pid, 0, NULL,
		      0) < 0))
		return -ENOMEM;
	if (sink_map_add(&f->counters, h, i) < 0)
		return -ENOMEM;
	return pf_track(f, *uuid, PF_PROC + ev->pid, PF_TD_COUNTER, ev->pid, 0,
			ev->name, ev->namelen);
}

/* The sequence's first packet: its incremental state starts empty. */
static int pf_begin(struct tl_enc *e)
{
	uint8_t *p = (uint8_t *)outbuf_reserve(e->out, 32), *start = p, *pkt;

	if (!p)
		return -ENOMEM;
	pkt = pf_open(&p, PF_TRACE_PACKET);
	p = pf_uint(p, PF_PKT_SEQ_ID, PF_SEQ);
	p = pf_uint(p, PF_PKT_SEQ_FLAGS, PF_SEQ_CLEARED);
	p = pf_close(pkt, p);
	outbuf_commit(e->out, (size_t)(p - start));
	e->bytes += (uint64_t)(p - start);
	return 0;
}

static void pf_destroy(struct tl_enc *e)
{
	struct tl_pf *f = container_of(e, struct tl_pf, enc);

	free(f->tracks);
	free(f->bloom);
	sink_map_fini(&f->iids);
	sink_map_fini(&f->procs);
	sink_map_fini(&f->counters);
	free(f);
}

static const struct tl_enc_ops tl_pf_ops = {
	.name = "perfetto",
	.begin = pf_begin,
	.process = pf_process,
	.thread = pf_thread,
	.event = pf_event,
	.destroy = pf_destroy,
};

struct tl_enc *tl_pf_create(struct outbuf *out, const struct sink_time *t)
{
	struct tl_pf *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->enc.ops = &tl_pf_ops;
	f->enc.out = out;
	f->enc.time = t;
	/* without it, names go to iids directly */
	f->bloom = calloc(PF_BLOOM / 64, sizeof(*f->bloom));
	return &f->enc;
}
