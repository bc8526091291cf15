/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Perfetto encoder's state and its interning of names, categories
 * and keys: chrome-pf.c writes the file's start and its tracks,
 * chrome-pf-event.c the events' packets, chrome-pf-intern.c gives the
 * iids (the caches' probes are inline here, for the packets' path).
 */
#ifndef KTF_CHROME_PF_INT_H
#define KTF_CHROME_PF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sink-util.h"
#include "timeline.h"

#define PF_MAXIIDS	65536		/* names interned per kind */
#define PF_CACHE	1024		/* iids of kept strings, by address */
#define PF_SHORTS	256		/* iids of short names, by content */
#define PF_BLOOM	(1u << 19)	/* bits of the names' filter (64 KiB) */
#define PF_PEND		64		/* new names before the map takes them */
#define PF_HOT		64		/* keys in tl_pf.hot */

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
	 * key's address (a key stays unchanged until the run ends), direct
	 * mapped (PF_HOTSLOT()): one probe, before the cache's hash and its
	 * load of the key's length.
	 */
	struct pf_hotkey {
		const struct tl_key *k;
		uint32_t iid;
	} hot[PF_HOT];
	/*
	 * The last time stamp written, as a varint but for its low 21 bits
	 * (its first three bytes): the next one with the same bits above
	 * them (within 2 ms of it) writes only those.
	 */
	uint64_t ts_hi;			/* its ts >> 21; UINT64_MAX: none */
	uint64_t ts_word;		/* its bytes 0-7, the low 21 bits 0 */
	uint8_t ts_tail[2];		/* its bytes 8 and 9 */
	uint8_t ts_len;
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

#define PF_SEQ		1		/* the trusted_packet_sequence_id */
#define PF_COUNTER	(2ull << 40)	/* uuid of counter track N: + N */

/* chrome-pf.c's */

/* A string field, as valid UTF-8: 3 len + PF_NEST bytes at most. */
uint8_t *pf_str(uint8_t *p, unsigned field, const char *s, size_t len);

/* The track of a counter named as ev, described on first sight. -ENOMEM */
int pf_counter_track(struct tl_pf *f, const struct tl_event *ev,
		     uint64_t *uuid);

/* chrome-pf-event.c's: tl_enc_ops.event */
int pf_event(struct tl_enc *e, const struct tl_event *ev);

/* chrome-pf-intern.c's */

/* A 64-bit hash of (kind, s), eight bytes at a time. */
uint64_t pf_hash(unsigned kind, const char *s, size_t len);

/*
 * The iid of s (kind), given now if new (and added to nw); 0: not
 * interned (past PF_MAXIIDS), write it out. -ENOMEM.
 */
int pf_iid_slow(struct tl_pf *f, enum pf_kind kind, const char *s,
		size_t len, struct pf_new *nw, size_t *nnew, uint32_t *iid);

/* pf_iid_slow() for a name that does not stay (PF_SHORTS first) */
int pf_iid_name(struct tl_pf *f, const char *s, size_t len,
		struct pf_new *nw, size_t *nnew, uint32_t *iid);

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

/*
 * The slot of key k in tl_pf.hot: its address over 32 (a key's size: the
 * keys of literals and of a type's fields, side by side, apart).
 */
#define PF_HOTSLOT(k) ((uintptr_t)(k) / 32 % PF_HOT)

/* The iid of key k if f->hot holds it. */
static inline bool pf_hot_key(const struct tl_pf *f, const struct tl_key *k,
			      uint32_t *iid)
{
	const struct pf_hotkey *h = &f->hot[PF_HOTSLOT(k)];

	if (h->k != k)
		return false;
	*iid = h->iid;
	return true;
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

#endif
