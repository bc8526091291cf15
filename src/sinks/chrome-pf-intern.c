// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Perfetto encoder's interning (chrome-pf-int.h): a string's iid by a
 * 64-bit hash of its kind and bytes; names (most are new: an unknown
 * id's) told new by a filter of their hashes and taken into the map a
 * batch at a time; short names that do not stay by their bytes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "chrome-pf-int.h"
#include "sink-util.h"

/* A 64-bit hash of (kind, s), eight bytes at a time. */
uint64_t pf_hash(unsigned kind, const char *s, size_t len)
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
int pf_iid_slow(struct tl_pf *f, enum pf_kind kind, const char *s,
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
__attribute__((noinline)) int
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
