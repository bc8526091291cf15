/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One model of the timeline, several encoders. The Chrome sink decides
 * what the timeline holds (sink-chrome.c, chrome-*.c): processes, tracks
 * (threads), slices, instants, counter samples and their args; an encoder
 * decides how it is written: Chrome trace-event JSON (chrome-json.c) or
 * Perfetto's protobuf TracePackets (chrome-pf.c). Both see the same calls
 * in the same order, so the two files hold the same timeline.
 *
 * Time stamps are on the sink's timeline (struct sink_time): an encoder
 * converts them (JSON: µs with three decimals; Perfetto: ns).
 */
#ifndef KTF_TIMELINE_H
#define KTF_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

struct outbuf;
struct sink_time;

/* What an event is (the letters are Chrome's "ph"). */
enum tl_ph {
	TL_SLICE = 'X',		/* from ts to end, written when it ends */
	TL_OPEN = 'o',		/* a TL_SLICE to come (opened) starts */
	TL_BEGIN = 'B',		/* a slice opens on the track */
	TL_END = 'E',		/* the innermost open slice of the track ends */
	TL_INSTANT = 'i',
	TL_COUNTER = 'C',	/* a sample of the counter named name */
};

/*
 * An arg's key: its name and JSON form, made once (a type's field, a
 * literal) and shared by every arg of that name.
 */
struct tl_key {
	const char *key;	/* borrowed: unchanged until the run ends */
	/* borrowed: "key": quoted for JSON, or NULL; 16 bytes may be read
	 * at jkey (JSON copies a key of up to 16 bytes as 16) */
	const char *jkey;
	uint32_t keylen;
	uint32_t jkeylen;
	bool hex;		/* an address (v: INT): JSON "0x…", Perfetto a
				 * pointer value (JSON readers hold doubles) */
	/* jkey is "key":"value" whole, the arg's value written already
	 * (TL_NOTE: a constant note; JSON only) */
	bool whole;
};

/* One arg: a key and a value (INT, FLOAT, STR; NONE is null). */
struct tl_arg {
	const struct tl_key *k;	/* borrowed: unchanged until the run ends */
	bool hex;		/* k->hex, at hand (one load less an arg) */
	struct value v;		/* strings borrowed */
};

struct tl_event {
	char ph;		/* enum tl_ph */
	bool args_always;	/* JSON: "args":{} even without args */
	/* JSON: every arg a VALUE_INT, not negative, not hex, with a jkey
	 * of 16 bytes at most (a kvmtrace instant's): no questions asked */
	bool args_uint;
	bool opened;		/* TL_SLICE: its start was a TL_OPEN */
	/*
	 * TL_SLICE: it encloses every slice of its track written before it
	 * that starts at or after ts (a call whose entry came before the
	 * trace): at an equal ts it must open first.
	 */
	bool outer;
	uint32_t pid, tid;	/* the track: Chrome's process and thread */
	uint64_t ts;
	uint64_t end;		/* TL_SLICE */
	double value;		/* TL_COUNTER */
	const char *name;	/* borrowed; NULL for TL_END */
	size_t namelen;
	bool name_kept;		/* name stays, unchanged, until the run ends */
	/* with name_kept: the version of what name's address holds (a cache
	 * slot's: it changes when the slot is filled again); 0: never */
	uint32_t name_ver;
	const char *cat;	/* borrowed: unchanged until the run ends */
	size_t catlen;
	/* JSON only: {"name":…,"cat":…,"ph":"i","s":"t","ts": cached */
	const char *jhead;	/* borrowed, or NULL */
	size_t jheadlen;
	/* JSON only: {"name":…,"cat":… cached (borrowed), or NULL */
	const char *jname;
	size_t jnamelen;
	const struct tl_arg *args;	/* borrowed */
	size_t nargs;
	/* JSON: the bytes the args take at most (TL_ARGBOUND() of each
	 * key, SINK_JSON_BOUND() of each string), or 0: not known */
	size_t jargs;
	/*
	 * Perfetto: room the producer keeps for the iids of the keys of
	 * args[0..niids) (the same keys at each event that passes it; 0:
	 * not known yet), or NULL
	 */
	uint32_t *iids;
	size_t niids;
	/* Perfetto: room the producer keeps for the iids of name (while
	 * name_ver holds) and of cat (0: not known yet), or NULL */
	uint32_t *name_iid, *cat_iid;
};

/* JSON's bytes of an arg of key k but for a string value's. */
#define TL_ARGBOUND(k)                                                    \
	((k)->jkey ? (size_t)(k)->jkeylen + 48                            \
		   : SINK_JSON_BOUND((size_t)(k)->keylen) + 48)

/*
 * An event of kind ph with nothing else set, field by field: an
 * initializer's zeroing of the rest was a "rep stos" on the hot path, a
 * sixth of an instant's time.
 */
static inline void tl_event_init(struct tl_event *e, char ph)
{
	e->ph = ph;
	e->args_always = false;
	e->args_uint = false;
	e->opened = false;
	e->outer = false;
	e->pid = 0;
	e->tid = 0;
	e->ts = 0;
	e->end = 0;
	e->value = 0;
	e->name = NULL;
	e->namelen = 0;
	e->name_kept = false;
	e->name_ver = 0;
	e->cat = NULL;
	e->catlen = 0;
	e->jhead = NULL;
	e->jheadlen = 0;
	e->jname = NULL;
	e->jnamelen = 0;
	e->args = NULL;
	e->nargs = 0;
	e->jargs = 0;
	e->iids = NULL;
	e->niids = 0;
	e->name_iid = NULL;
	e->cat_iid = NULL;
}

struct tl_enc;

struct tl_enc_ops {
	const char *name;
	/* The start of the file. */
	int (*begin)(struct tl_enc *e);
	/* A process, before its first track. */
	int (*process)(struct tl_enc *e, uint32_t pid, const char *name,
		       size_t len, int64_t sort);
	/* A track (a thread of process pid), before its first event. */
	int (*thread)(struct tl_enc *e, uint32_t pid, uint32_t tid,
		      const char *name, size_t len, int64_t sort);
	int (*event)(struct tl_enc *e, const struct tl_event *ev);
	void (*destroy)(struct tl_enc *e);
};

/* The state every encoder embeds first. */
struct tl_enc {
	const struct tl_enc_ops *ops;	/* borrowed, static */
	struct outbuf *out;		/* borrowed */
	const struct sink_time *time;	/* borrowed */
	uint64_t bytes;			/* written so far */
	/*
	 * JSON: ns taken off every time stamp, so that µs with three
	 * decimals fit a double (a wall-clock timeline); 0: none. Set at
	 * the first time stamp written.
	 */
	uint64_t ts_base;
	bool base_set;
};

/* Chrome JSON (chrome-json.c), Perfetto protobuf (chrome-pf.c). */
struct tl_enc *tl_json_create(struct outbuf *out, const struct sink_time *t);
struct tl_enc *tl_pf_create(struct outbuf *out, const struct sink_time *t);

static inline void tl_enc_destroy(struct tl_enc *e)
{
	if (e)
		e->ops->destroy(e);
}

static inline void tl_arg_str(struct tl_arg *a, const struct tl_key *k,
			      const char *s, size_t len)
{
	a->k = k;
	a->hex = k->hex;
	value_set_str(&a->v, s, len);
}

static inline void tl_arg_u64(struct tl_arg *a, const struct tl_key *k,
			      uint64_t u)
{
	a->k = k;
	a->hex = k->hex;
	value_set_u64(&a->v, u);
}

/* A string literal and its length. */
#define TL_KEY(s) s, (uint32_t)(sizeof(s) - 1)

/* The key of a literal name, a plain ASCII word; TL_HEXKEY an address's. */
#define TL_KEYDEF(s, h)                                                   \
	({                                                                \
		static const char tl_j_[(sizeof(s) + 2 + 16) & ~15u] =    \
			"\"" s "\":";                                       \
		static const struct tl_key tl_k_ = {                      \
			s, tl_j_, (uint32_t)sizeof(s) - 1,                \
			(uint32_t)sizeof(s) + 2, h, false                 \
		};                                                        \
		&tl_k_;                                                   \
	})
#define TL_K(s) TL_KEYDEF(s, false)
#define TL_HEXK(s) TL_KEYDEF(s, true)

/*
 * The key of a note whose value is a constant string v, neither needing
 * JSON's escapes: JSON copies "s":"v" whole (an unpaired exit's note
 * was escaped byte by byte each time, 200 instructions); tl_arg_note()
 * sets the arg.
 */
#define TL_NOTE(s, v)                                                     \
	({                                                                \
		static const char tl_j_[(sizeof(s) + sizeof(v) + 4 + 15) & \
					~15u] = "\"" s "\":\"" v "\"";      \
		static const struct tl_key tl_k_ = {                      \
			s, tl_j_, (uint32_t)sizeof(s) - 1,                \
			(uint32_t)(sizeof(s) + sizeof(v) + 3), false, true \
		};                                                        \
		&tl_k_;                                                   \
	})

/* An arg of a TL_NOTE key: its value is the text after "s":" */
static inline void tl_arg_note(struct tl_arg *a, const struct tl_key *k)
{
	tl_arg_str(a, k, k->jkey + k->keylen + 4, k->jkeylen - k->keylen - 5);
}

#endif
