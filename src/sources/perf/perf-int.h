/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The perf.data reader's own state, shared by its files: source-perf.c
 * (open, the ops), perf-file.c (the byte stream, a normal file's header
 * and feature sections), perf-attrs.c (events, their ids and names),
 * perf-pipe.c (a pipe file's header records), perf-tracing.c (HEADER_TRACING_DATA
 * into libtraceevent), perf-order.c (records in time order, flushed by
 * FINISHED_ROUND as perf does; threads and their comms), perf-queue.c
 * (the records waiting for their round), perf-fields.c
 * (template keys and the line `perf script` prints), perf-zstd.c
 * (PERF_RECORD_COMPRESSED).
 *
 * The layout is perf's (tools/perf/Documentation/perf.data-file-format.txt
 * and include/uapi/linux/perf_event.h); nothing of perf's code is used.
 */
#ifndef KTF_PERF_INT_H
#define KTF_PERF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "byteorder.h"
#include "diag.h"
#include "source.h"
#include "tep/tep-fields.h"

#define PERF_MAGIC		"PERFILE2"
#define PERF_MAGIC_SWAPPED	"2ELIFREP"
#define PERF_MAGIC_V1		"PERFFILE"	/* perf 3.x, either byte order */
#define PERF_HEADER_SIZE	104
#define PERF_HEADER_SIZE_OLD	72	/* without the feature bits */
#define PERF_PIPE_HEADER_SIZE	16

/* The most a sane header section may hold (attrs, names, formats). */
#define PERF_SECTION_MAX	(256u << 20)
#define PERF_ATTRS_MAX		65536u

/* perf_event_attr.type */
enum {
	PERF_T_HARDWARE = 0,
	PERF_T_SOFTWARE = 1,
	PERF_T_TRACEPOINT = 2,
	PERF_T_HW_CACHE = 3,
	PERF_T_RAW = 4,
	PERF_T_BREAKPOINT = 5,
};

/* sample_type bits */
#define PERF_S_IP		(1ull << 0)
#define PERF_S_TID		(1ull << 1)
#define PERF_S_TIME		(1ull << 2)
#define PERF_S_ADDR		(1ull << 3)
#define PERF_S_READ		(1ull << 4)
#define PERF_S_CALLCHAIN	(1ull << 5)
#define PERF_S_ID		(1ull << 6)
#define PERF_S_CPU		(1ull << 7)
#define PERF_S_PERIOD		(1ull << 8)
#define PERF_S_STREAM_ID	(1ull << 9)
#define PERF_S_RAW		(1ull << 10)
#define PERF_S_IDENTIFIER	(1ull << 16)

/* read_format bits */
#define PERF_RF_ENABLED		(1ull << 0)
#define PERF_RF_RUNNING		(1ull << 1)
#define PERF_RF_ID		(1ull << 2)
#define PERF_RF_GROUP		(1ull << 3)
#define PERF_RF_LOST		(1ull << 4)

/* record types */
enum {
	PERF_R_MMAP = 1,
	PERF_R_LOST = 2,
	PERF_R_COMM = 3,
	PERF_R_EXIT = 4,
	PERF_R_FORK = 7,
	PERF_R_SAMPLE = 9,
	PERF_R_USER = 64,		/* perf's own records from here */
	PERF_R_HEADER_ATTR = 64,
	PERF_R_HEADER_EVENT_TYPE = 65,
	PERF_R_HEADER_TRACING_DATA = 66,
	PERF_R_HEADER_BUILD_ID = 67,
	PERF_R_FINISHED_ROUND = 68,
	PERF_R_AUXTRACE = 71,
	PERF_R_EVENT_UPDATE = 78,
	PERF_R_HEADER_FEATURE = 80,
	PERF_R_COMPRESSED = 81,
};

#define PERF_EVENT_UPDATE_NAME	2

/* feature bits of the file header (and HEADER_FEATURE's ids) */
enum {
	PERF_F_TRACING_DATA = 1,
	PERF_F_BUILD_ID = 2,
	PERF_F_HOSTNAME = 3,
	PERF_F_EVENT_DESC = 12,
	PERF_F_CLOCKID = 23,
	PERF_F_COMPRESSED = 27,
	PERF_F_CLOCK_DATA = 29,
	PERF_F_BITS = 256,
};

/* One event of the file (an attr and its ids). */
struct perf_attr {
	struct event_type t;	/* name, system: the tracepoint's */
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	uint64_t read_format;
	bool sample_id_all;
	char *name;		/* owned: perf's name ("kvm:kvm_exit") */
	struct tep_event *tp;	/* borrowed from tep: tracepoints */
	/* byte offsets in its samples, from sample_type (perf_attrs_done) */
	uint16_t off_tid, off_time, off_cpu, off_read;	/* off_read: after PERIOD */
	bool plain;	/* TID, TIME, CPU and RAW, no READ nor CALLCHAIN */
	bool pf_tried;		/* pf was made (perf-print.c) */
	bool pf_sure;		/* pf's text never fails (x / 0 ...) */
	uint32_t pf_room;	/* perf_print_room() of a record that fits */
	struct perf_pfmt *pf;	/* owned: the fast print fmt, or NULL */
	size_t pf_size;		/* a record size pf's fields fit in */
	uint64_t fits;		/* tdguard_fits() of tp, 0: not asked yet */
	/* the default line's "%*s: " of name, made for name_width pname_w */
	int pname_w;
	uint8_t pnamelen;
	char pname[48];
};

struct perf_id {
	uint64_t id;
	uint32_t attr;
};

/* The bytes of the input, buffered (perf-file.c). */
struct perf_in {
	int fd;
	bool own_fd;
	unsigned char *buf;	/* owned */
	size_t cap, pos, len;
	uint64_t off;		/* file offset of buf[0] */
	uint64_t end;		/* where the data ends (UINT64_MAX: a pipe) */
	bool eof;
};

struct perf_pfmt;
struct tdguard;

/* A decoded sample (the current event's ev->rec). */
struct perf_sample {
	struct perf_attr *attr;	/* borrowed */
	uint64_t time;
	int32_t pid, tid;
	uint32_t cpu;
	const unsigned char *raw;	/* borrowed: the record's raw data */
	uint32_t raw_size;
	uint64_t offset;	/* the record's offset in the file */
	uint64_t seq;		/* its place among the samples handed out
				 * (ev->seq) */
	uint32_t room;		/* perf_print_room() + 1; 0: not asked */
};

/* A queued record (perf-order.c): its bytes sit in the arena. */
struct perf_qent {
	uint64_t ts;
	uint64_t seq;
	uint64_t offset;	/* in the file, for messages */
	uint32_t at;		/* in the arena (at most PERF_QUEUE_MAX) */
	uint32_t attr;		/* a sample's attr + 1 when queued, 0: none */
};

struct perf_thread {
	int32_t tid;		/* 0 and in use: used */
	bool used;
	bool comm_set;
	char comm[24];		/* NUL-terminated; ":TID" until known */
	uint8_t len;
	uint8_t headlen;	/* head's: 0, not made since comm changed */
	char head[40];		/* "%16s %5d" of comm and tid (perf-fields.c) */
};

struct perf {
	const char *name;	/* borrowed: the source's */
	bool swap;		/* the file's byte order is not ours */
	bool file_be;
	bool pipe;
	int64_t clockid;	/* perf record -k: the attrs' clockid;
				 * -1: none (perf's own clock);
				 * PERF_CLOCKID_UNKNOWN: a CLOCKID feature
				 * (the clock's resolution) without it */
	char *hostname;		/* owned: HOSTNAME feature; NULL: none */
	char kbid[2 * 20 + 1];	/* the kernel's build-id, hex; "": none */
	struct perf_ksyms *ksyms;	/* owned: for %pS (perf-ksyms.c) */
	struct perf_in in;
	uint64_t data_off, data_size;	/* normal files */
	uint64_t feat_off;		/* where the feature table is */
	unsigned char features[PERF_F_BITS / 8];
	/* events */
	struct perf_attr *attrs;	/* owned */
	uint32_t nattrs, capattrs;
	struct perf_id *ids;		/* owned, sorted after open */
	size_t nids, capids;
	bool ids_sorted;
	/* perf_attr_of()'s last answers by the id's low bits: attr + 1, 0 none */
	uint64_t idc_id[16];
	uint32_t idc_attr[16];
	int name_width;			/* the longest event name */
	uint64_t id_type;		/* sample_type that finds ids */
	int32_t id_pos;			/* where a sample's id is; -1: none */
	bool ntp;			/* has tracepoint events */
	/* libtraceevent */
	struct tep_handle *tep;		/* owned */
	bool have_tracing;
	struct trace_seq info;		/* owned */
	char *ppbuf;			/* owned: perf-print.c's text */
	size_t ppcap;
	struct tdguard *guard;		/* owned: libtraceevent's printing
					 * under a trap (tracedat-guard.h) */
	/* records in time order (perf-order.c) */
	unsigned char *arena;		/* owned: queued records */
	size_t alen, acap;
	size_t alive;			/* the queued records' bytes (those
					 * gone out not counted) */
	unsigned char *arena2;		/* owned: the next arena */
	size_t acap2;
	struct perf_qent *q;		/* owned */
	size_t nq, capq, qsorted;	/* q[0..qsorted) sorted */
	uint64_t hsec_v;		/* the default line's last second */
	uint8_t hseclen;		/* and its text's length (0: none) */
	char hsec[24];
	struct perf_qent *qtmp;		/* owned: perf_qsort()'s, capq long */
	size_t capqtmp;
	size_t out, nout;		/* q[out..nout): flushed, to hand out */
	uint64_t limit;			/* the next round flushes up to here */
	uint64_t max_ts;
	uint64_t seq;			/* records queued (perf_qent.seq) */
	uint64_t taken;			/* samples handed out */
	/*
	 * The time up to which a round (or a full queue) let records out,
	 * and the records queued below it since: perf's ordered events
	 * count them too ("N out of order events recorded") and print them
	 * at the next flush, after later ones; said once, at the end
	 */
	uint64_t flushed;
	uint64_t unordered;
	bool unordered_said;
	bool at_end;
	/* threads: open addressing by tid */
	struct perf_thread *threads;	/* owned */
	size_t nthreads, capthreads;
	/* perf_thread()'s last answers by the tid's low bits (or NULL) */
	struct perf_thread *tcache[8];
	/* bound keys (perf-fields.c); hex text for records of 64 KiB */
	struct tepf_slots slots;
	/* the current event */
	struct perf_sample cur;
	struct perf_sample *bcur;	/* owned: next_batch()'s samples */
	size_t capbcur;
	int bret;			/* what the next batch returns: an
					 * error after the last one's events */
	struct diag bd;			/* and its message */
	unsigned char *rec;		/* owned: a copy of the record */
	size_t reccap;
	uint64_t nsamples;
	/* zstd (perf-zstd.c) */
	void *zstd;			/* owned: ZSTD_DCtx */
	unsigned char *zbuf;		/* owned: decompressed records */
	size_t zcap, zlen, zpos;
	uint64_t zoff;			/* the COMPRESSED record's offset */
	/* a damaged record: the message, given at the next event */
	bool failed;
	struct diag fail_d;
	uint64_t ndamaged;
	bool truncated;
	/*
	 * feature sections past the end of a file cut short, left out
	 * (perf-file.c): the first one's message, and their bits in the
	 * order found, said at the end of the input
	 */
	struct diag cut_d;
	unsigned cut[4];
	unsigned ncut;
};

static inline uint16_t perf_u16(const struct perf *p, const void *q)
{
	return bo_u16(p->swap, q);
}

static inline uint32_t perf_u32(const struct perf *p, const void *q)
{
	return bo_u32(p->swap, q);
}

static inline uint64_t perf_u64(const struct perf *p, const void *q)
{
	return bo_u64(p->swap, q);
}

/* ---------------------------------------------------------- perf-file.c */

/* Have n bytes at in->buf + in->pos unless the input ends; -errno. */
int perf_in_fill(struct perf *p, size_t n, struct diag *d);
/* The file offset of the next byte. */
static inline uint64_t perf_in_tell(const struct perf_in *in)
{
	return in->off + in->pos;
}
/* Read exactly n bytes at file offset off (normal files); -errno. */
int perf_pread(struct perf *p, void *buf, size_t n, uint64_t off,
	       struct diag *d);
/* The header, attrs, ids, feature sections (normal files). */
int perf_open_file(struct perf *p, struct diag *d);
/* ------------------------------------------------------- perf-attrs.c */

/* A HEADER_ATTR record's payload (pipe). */
int perf_add_attr(struct perf *p, const unsigned char *a, size_t len,
		  const unsigned char *ids, size_t nids, struct diag *d);
/* EVENT_DESC's names (feature section or HEADER_FEATURE record). */
int perf_event_desc(struct perf *p, const unsigned char *b, size_t len,
		    struct diag *d);
/* The same, for the first snap attrs only (a pipe's record, read late). */
int perf_event_desc_among(struct perf *p, const unsigned char *b, size_t len,
			  uint32_t snap);
/* The attr of an id among the first snap attrs; with one, that one. */
struct perf_attr *perf_attr_among(struct perf *p, uint64_t id, uint32_t snap);
/* The attr of a sample, by its id (or the only one); NULL: unknown. */
struct perf_attr *perf_attr_find(struct perf *p, uint64_t id);
/* The same, its last answers first (p->idc_*) */
static inline struct perf_attr *perf_attr_of(struct perf *p, uint64_t id)
{
	size_t c = id & 15;

	if (__builtin_expect(p->idc_attr[c] && p->idc_id[c] == id, 1))
		return &p->attrs[p->idc_attr[c] - 1];
	return perf_attr_find(p, id);
}
/* Sort the ids; names of tracepoints from tep; the longest name. */
int perf_attrs_done(struct perf *p, struct diag *d);

/* -------------------------------------------------------- perf-pipe.c */

/* A pipe: the header records before the first kernel record. */
int perf_open_pipe(struct perf *p, struct diag *d);

/* ------------------------------------------------------- perf-tracing.c */

/* Parse tracing data (trace-cmd's layout) into p->tep; -errno. */
int perf_tracing_parse(struct perf *p, const unsigned char *b, size_t len,
		       uint64_t off, struct diag *d);

/* --------------------------------------------------------- perf-order.c */

/*
 * The next sample in perf's order into p->cur; 1, 0 at the end, -errno
 * with d filled.
 */
int perf_order_next(struct perf *p, struct diag *d);
/*
 * Up to max samples in perf's order into s[] (next_batch): those of the
 * queue that went out by a round, each whole while the batch is used; a
 * batch ends before a COMM or FORK (a thread's name changes) and after a
 * sample whose text may be libtraceevent's (perf_print_lib()). The count,
 * 0 at the end, -errno (then with none) as perf_order_next().
 */
int perf_order_batch(struct perf *p, struct perf_sample *s, size_t max,
		     struct diag *d);
/* The thread table, with TID 0 named "swapper" as perf does. */
int perf_threads_init(struct perf *p);
/* A thread's comm as perf names it (":TID" when unknown). */
const char *perf_comm(struct perf *p, int32_t tid, size_t *len);
/* The thread of tid (made, ":TID", when new), NULL: out of memory. */
struct perf_thread *perf_thread_get(struct perf *p, int32_t tid);
/* The same, its last answers first (p->tcache) */
static inline struct perf_thread *perf_thread(struct perf *p, int32_t tid)
{
	struct perf_thread *t = p->tcache[(uint32_t)tid & 7];

	if (__builtin_expect(t && t->tid == tid, 1))
		return t;
	return perf_thread_get(p, tid);
}
/*
 * A COMM or FORK record's body (len bytes after its header) names its
 * thread; other types are left alone. 0, or -ENOMEM (perf-threads.c).
 */
int perf_task(struct perf *p, uint32_t type, const unsigned char *r,
	      size_t len);
void perf_order_free(struct perf *p);

/* --------------------------------------------------------- perf-queue.c */

/* Room for one more entry and a record of size bytes: 0 or -ENOMEM. */
int perf_queue_room(struct perf *p, size_t size, struct diag *d);
/*
 * Queue a record of size bytes stamped ts (attr: a sample's attr + 1, 0:
 * none, as struct perf_qent keeps it). 0 or -ENOMEM with d filled.
 */
static inline int perf_queue(struct perf *p, const unsigned char *rec,
			     size_t size, uint64_t ts, uint64_t offset,
			     uint32_t attr, struct diag *d)
{
	size_t padded = (size + 7) & ~(size_t)7;

	/* an entry and size bytes more: as a rule there is room */
	if (__builtin_expect(p->nq == p->capq || p->alen + size > p->acap, 0)) {
		int ret = perf_queue_room(p, size, d);

		if (ret < 0)
			return ret;
	}
	memcpy(p->arena + p->alen, rec, size);
	if (__builtin_expect(ts < p->flushed, 0))
		p->unordered++;
	p->q[p->nq++] = (struct perf_qent){ ts, p->seq++, offset,
					    (uint32_t)p->alen, attr };
	p->alen += padded;
	p->alive += padded;
	if (p->alen > p->acap)
		p->alen = p->acap;
	if (ts > p->max_ts)
		p->max_ts = ts;
	return 0;
}

/* Hand out the queued records up to limit, in time order (q[out..nout)). */
void perf_flush(struct perf *p, uint64_t limit);
/* Once q[0..nout) went out: see perf-queue.c. 0 or -ENOMEM. */
int perf_compact(struct perf *p, bool may_copy, struct diag *d);
/*
 * The most the queue may take: its records (arena), the spare arena the
 * compaction copies them to, and its entries (struct perf_qent), in
 * capacities that double. The older half goes out without a round when
 * the records and entries in use pass a quarter of it (perf_queue_full()):
 * then each capacity is at most twice what is in use, the spare arena at
 * most what is in use, so the three stay under the whole. (The arena
 * keeps records gone out until they take PERF_DEAD_MIN, a batch's 64
 * more: a few hundred KiB on top.)
 */
#define PERF_QUEUE_MAX	(128u << 20)

static inline bool perf_queue_full(const struct perf *p)
{
	return p->alive + p->nq * sizeof(*p->q) > PERF_QUEUE_MAX / 4;
}
/* Decode a sample record of len bytes (after the 8-byte header). */
int perf_parse_sample(struct perf *p, const unsigned char *r, size_t len,
		      struct perf_sample *s, uint64_t offset, struct diag *d);

/* --------------------------------------------------------- perf-ksyms.c */

struct perf_ksyms;
/*
 * Name kernel addresses (%pS, %ps) in libtraceevent's text from the
 * symbols perf would take, when the file's events print any; else (or
 * without such symbols) src->note says what would name them. -errno only
 * for a --kallsyms file that cannot be read.
 */
int perf_ksyms_setup(struct source *src, struct perf *p, struct diag *d);
void perf_ksyms_free(struct perf *p);

/* ---------------------------------------------------------- perf-zstd.c */

/*
 * Decompress a COMPRESSED record's payload into p->zbuf (whose records are
 * then read before the file's). Returns 0 or -errno with d filled.
 */
int perf_zstd_inflate(struct perf *p, const unsigned char *b, size_t len,
		      uint64_t offset, struct diag *d);
void perf_zstd_free(struct perf *p);

/* -------------------------------------------------------- perf-fields.c */

void perf_fields_free(struct perf *p);
int perf_bind(struct source *src, const struct event_type *t,
	      const char *key);
int perf_field(struct source *src, const struct event *ev, int index,
	       struct value *out);
size_t perf_fields(struct source *src, const struct event_type *t,
		   const char **names, size_t max);
int perf_each_type(struct source *src,
		   int (*fn)(const struct event_type *t, void *arg), void *arg);
int perf_render_default(struct source *src, const struct event *ev,
			struct outbuf *out);
/*
 * perf-print.c: libtraceevent's text of the current sample of attr at,
 * made by hand when its print fmt is simple enough (*len set), else NULL.
 */
const char *perf_print_fast(struct perf *p, const struct perf_sample *s,
			    size_t *len);
/*
 * The same in two steps, for a caller's buffer: the room the text may
 * take (0: no text by hand for this sample), then the text into b (its
 * end, NULL: not computable; then libtraceevent's text is the one).
 */
size_t perf_print_room(struct perf *p, const struct perf_sample *s);
char *perf_print_to(const struct perf *p, const struct perf_sample *s, char *b);
/*
 * May s's text (perf_info(), the default line) be libtraceevent's, whose
 * printing may fail (tdguard_info())? Then it ends a batch.
 */
bool perf_print_lib_slow(struct perf *p, struct perf_sample *s);
static inline bool perf_print_lib(struct perf *p, struct perf_sample *s)
{
	const struct perf_attr *a = s->attr;

	/* a record of the size of the last one printed by hand */
	if (__builtin_expect(a->pf_sure && s->raw_size == a->pf_size &&
			     s->raw && p->tep, 1)) {
		s->room = a->pf_room + 1;
		return false;
	}
	return perf_print_lib_slow(p, s);
}
void perf_print_free(struct perf *p);
/* libtraceevent's text of sample s, no plugins. */
const char *perf_info(struct perf *p, const struct perf_sample *s, size_t *len);

#define PERF_CLOCKID_UNKNOWN	(-2)

/* perf-attrs.c: the HOSTNAME feature's string into p->hostname */
int perf_hostname(struct perf *p, const unsigned char *b, size_t n);

#endif
