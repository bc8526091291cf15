// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: the records of TID.dat, read through a small buffer per task,
 * the heap that merges the tasks in time order, and the call stacks.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uftrace-int.h"
#include "uftrace-walk.h"

#define UFT_SKIP	(-2)	/* uft_payload(): skip this record */
#define UFT_RESYNC	(64u << 10)	/* how far to look for the next */

/* ------------------------------------------------------------ task data */

/*
 * Have at least need bytes at t->pos (fewer only at the end of the file).
 * Returns the bytes available, or a negative errno (noted as a problem).
 */
ssize_t uft_fill(struct uftrace *uf, struct uft_task *t, size_t need)
{
	struct stat st;

	/*
	 * Opened at the first read: a file that fits the buffer is read
	 * whole and closed at once, so only large ones hold a descriptor.
	 */
	if (t->fd < 0 && !t->eof && t->len - t->pos < need) {
		/* no wait on a FIFO put there: it is refused below */
		t->fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (t->fd < 0) {
			int err = errno;

			/* a task that recorded nothing has no file */
			t->nofile = err == ENOENT;
			if (err != ENOENT)
				uft_problem(uf, "%s: cannot open: %s", t->path,
					    strerror(err));
			t->eof = true;
			return err == ENOENT ? 0 : -err;
		}
		if (fstat(t->fd, &st) < 0) {
			st.st_mode = S_IFREG;
			st.st_size = 0;
		}
		if (!S_ISREG(st.st_mode)) {
			uft_problem(uf, "%s: not a regular file (a FIFO, a device?): task %" PRId64 " skipped",
				    t->path, t->tid);
			close(t->fd);
			t->fd = -1;
			t->eof = true;
			return -EINVAL;
		}
		t->fsize = (uint64_t)st.st_size;
	}
	while (t->len - t->pos < need && !t->eof) {
		ssize_t n;

		if (t->pos) {
			memmove(t->buf, t->buf + t->pos, t->len - t->pos);
			t->len -= t->pos;
			t->pos = 0;
		}
		if (need > t->cap || !t->buf) {
			size_t cap = need > UFT_BUF_SIZE ? need : UFT_BUF_SIZE;
			unsigned char *nb = realloc(t->buf, cap);

			if (!nb) {
				uf->nomem = true;
				return -ENOMEM;
			}
			t->buf = nb;
			t->cap = cap;
		}
		n = pread(t->fd, t->buf + t->len, t->cap - t->len,
			  (off_t)t->foff);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			uft_problem(uf, "%s: offset 0x%" PRIx64 ": cannot read: %s",
				    t->path, t->foff, strerror(err));
			return -err;
		}
		t->len += (size_t)n;
		t->foff += (uint64_t)n;
		if (n == 0 || t->foff >= t->fsize) {
			t->eof = true;
			close(t->fd);
			t->fd = -1;
		}
	}
	return (ssize_t)(t->len - t->pos);
}

uint64_t uft_offset(const struct uft_task *t)
{
	return t->foff - (t->len - t->pos);
}

void uft_task_finish(struct uft_task *t)
{
	t->done = true;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	free(t->buf);
	t->buf = NULL;
	t->cap = t->len = t->pos = 0;
}

/*
 * The size of the payload after the record at t->pos (the record itself
 * is in the buffer), or -1 with a problem noted.
 */
static int64_t uft_payload(struct uftrace *uf, struct uft_task *t,
			   const struct uft_rec *r, uint64_t off,
			   const struct uft_argv **avp, uint32_t *arglen)
{
	const struct uft_argv *av;
	struct uft_symtab *mod;
	struct uft_sym *sym;
	uint64_t size = 0;
	ssize_t have;
	size_t i;
	bool any = false;

	if (r->type == UFT_EVENT) {
		have = uft_fill(uf, t, UFT_REC_SIZE + 2);
		if (have < 0)
			return -1;
		if (have < UFT_REC_SIZE + 2)
			goto truncated;
		size = uft_u16(uf, t->buf + t->pos + UFT_REC_SIZE);
		*arglen = (uint32_t)size;
		return (int64_t)UFT_ALIGN(size + 2, 8);
	}
	if (r->type == UFT_LOST) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": a lost-records record with a payload; the rest of task %" PRId64 " is skipped",
			    t->path, off, t->tid);
		return -1;
	}
	sym = uft_resolve(uf, t, r->ts, r->addr, &mod);
	if (!sym) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": the %s record of 0x%" PRIx64 " has %s, but no symbol tells their layout; the record is skipped",
			    t->path, off, r->type == UFT_ENTRY ? "entry" : "exit",
			    r->addr,
			    r->type == UFT_ENTRY ? "arguments" : "a return value");
		return UFT_SKIP;
	}
	av = uft_args_of(uf, sym, mod);
	if (!av) {
		uf->nomem = true;
		return -1;
	}
	for (i = 0; i < av->n; i++) {
		const struct uft_arg *a = &av->v[i];

		if ((a->idx == UFT_RETVAL_IDX) != (r->type == UFT_EXIT))
			continue;
		any = true;
		if (a->fmt == UFT_AF_STR || a->fmt == UFT_AF_STDSTR) {
			have = uft_fill(uf, t, UFT_REC_SIZE + size + 2);
			if (have < 0)
				return -1;
			if ((uint64_t)have < UFT_REC_SIZE + size + 2)
				goto truncated;
			size += UFT_ALIGN((uint64_t)uft_u16(uf, t->buf + t->pos +
							  UFT_REC_SIZE + size) + 2, 4);
		} else {
			size += UFT_ALIGN(a->size, 4);
		}
	}
	if (!any) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": the %s record of %s has %s, but the recording's argument specs give it none; the record is skipped",
			    t->path, off, r->type == UFT_ENTRY ? "entry" : "exit",
			    sym->name,
			    r->type == UFT_ENTRY ? "arguments" : "a return value");
		return UFT_SKIP;
	}
	*avp = av;
	*arglen = (uint32_t)size;
	return (int64_t)UFT_ALIGN(size, 8);
truncated:
	uft_problem(uf, "%s: offset 0x%" PRIx64 ": truncated record payload",
		    t->path, off);
	return -1;
}

/* Does a record (or the end of the file) follow n bytes on from t->pos? */
static bool uft_follows(struct uftrace *uf, struct uft_task *t, size_t n)
{
	ssize_t have = uft_fill(uf, t, n + UFT_REC_SIZE);
	uint64_t w;

	if (have < 0 || (size_t)have < n)
		return false;
	if ((size_t)have < n + UFT_REC_SIZE)
		return (size_t)have == n && t->eof;
	w = uft_u64(uf, t->buf + t->pos + n + 8);
	return (uf->swap ? (w >> 58) & 7 : (w >> 3) & 7) == UFT_REC_MAGIC;
}

/*
 * After a record that disagrees with its argument specs: the next place
 * from t->pos + from on, within UFT_RESYNC bytes (8-byte aligned, as
 * records are), that holds a record of a time from ts on, up to a minute
 * later. Moves t->pos there and returns true, or returns false.
 */
static bool uft_resync(struct uftrace *uf, struct uft_task *t, uint64_t ts,
		       size_t from)
{
	ssize_t have = uft_fill(uf, t, UFT_RESYNC);
	size_t at;

	for (at = from; have > 0 && at + 2 * UFT_REC_SIZE <= (size_t)have;
	     at += 8) {
		const unsigned char *p = t->buf + t->pos + at;
		uint64_t rts = uft_u64(uf, p), w = uft_u64(uf, p + 8);
		unsigned magic = uf->swap ? (w >> 58) & 7 : (w >> 3) & 7;

		/* one with values of its own cannot be checked further */
		if (magic == UFT_REC_MAGIC && rts >= ts &&
		    rts - ts < UINT64_C(60000000000) &&
		    ((uf->swap ? w >> 61 : w >> 2) & 1 ||
		     uft_follows(uf, t, at + UFT_REC_SIZE))) {
			t->pos += at;
			return true;
		}
	}
	return false;
}

/*
 * Read the next record of t into t->rec. Returns 1, or 0 when the task has
 * no more records (at its end, or given up on after a noted problem).
 */
int uft_task_advance(struct uftrace *uf, struct uft_task *t)
{
	const unsigned char *p;
	struct uft_rec r;
	uint64_t w, off;
	int64_t psize;
	ssize_t have;
	unsigned magic;

	if (t->done)
		return 0;
	if (t->perf)
		return uft_perf_advance(uf, t);
	if (t->kern)
		return uft_kernel_advance(uf, t);
	if (t->astray) {
		/* the record before was kept; no record came after its values */
		t->astray = false;
		if (!uft_resync(uf, t, t->last_ts, 0)) {
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": no record follows within %u bytes; the rest of task %" PRId64 " is skipped",
				    t->path, uft_offset(t), UFT_RESYNC, t->tid);
			goto fail;
		}
	}
again:
	have = t->len - t->pos >= UFT_REC_SIZE ? (ssize_t)(t->len - t->pos)
					       : uft_fill(uf, t, UFT_REC_SIZE);
	if (have < 0)
		goto fail;
	off = uft_offset(t);
	if (have == 0) {
		uft_task_finish(t);
		return 0;
	}
	if (have < UFT_REC_SIZE) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": truncated record (%d bytes needed, %zd left)",
			    t->path, off, UFT_REC_SIZE, have);
		goto fail;
	}
	p = t->buf + t->pos;
	r.ts = uft_u64(uf, p);
	w = uft_u64(uf, p + 8);
	if (uf->swap) {
		/* big-endian bit fields start at the top */
		r.type = (uint8_t)(w >> 62);
		r.more = (w >> 61) & 1;
		magic = (unsigned)(w >> 58) & 7;
		r.depth = (uint32_t)(w >> 48) & 0x3ff;
		r.addr = w & UFT_ADDR_MASK;
	} else {
		magic = uft_rec_unpack_le(w, &r);
	}
	if (magic != UFT_REC_MAGIC) {
		uint64_t left = t->fsize > off ? t->fsize - off : 0;

		uft_problem(uf, "%s: offset 0x%" PRIx64 ": bad record magic %u (want %d); the rest of task %" PRId64 " (%" PRIu64 " bytes) is skipped",
			    t->path, off, magic, UFT_REC_MAGIC, t->tid, left);
		goto fail;
	}
	psize = 0;
	t->pay_av = NULL;
	t->paylen = t->arglen = 0;
	if (r.more) {
		psize = uft_payload(uf, t, &r, off, &t->pay_av, &t->arglen);
		/*
		 * uftrace reads the values its specs give and the next
		 * record after them: the record stays, and where no record
		 * follows, the next one found does
		 */
		if (psize >= 0 && !uft_follows(uf, t, UFT_REC_SIZE + (size_t)psize)) {
			struct uft_symtab *mod;
			struct uft_sym *sym = uft_resolve(uf, t, r.ts, r.addr,
							  &mod);

			uft_problem(uf, "%s: offset 0x%" PRIx64 ": the %s record of %s disagrees with its argument specs (no record follows its %" PRId64 " bytes of values); the record is kept with the values its specs read, and what follows up to the next record is skipped",
				    t->path, off,
				    r.type == UFT_ENTRY ? "entry" : "exit",
				    sym ? sym->name : "a function without symbol",
				    psize);
			t->astray = true;
		}
		if (psize == UFT_SKIP) {
			if (uft_resync(uf, t, r.ts, UFT_REC_SIZE))
				goto again;
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": no record follows within %u bytes; the rest of task %" PRId64 " is skipped",
				    t->path, off, UFT_RESYNC, t->tid);
			goto fail;
		}
		if (psize < 0)
			goto fail;
		have = uft_fill(uf, t, UFT_REC_SIZE + (size_t)psize);
		if (have < 0)
			goto fail;
		if ((uint64_t)have < UFT_REC_SIZE + (uint64_t)psize) {
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": truncated record payload (%" PRId64 " bytes needed, %zd left)",
				    t->path, off + UFT_REC_SIZE, psize,
				    have - UFT_REC_SIZE);
			goto fail;
		}
		/* kept: the buffer moves on before the record is shown */
		if ((size_t)psize > t->paycap) {
			unsigned char *n = realloc(t->pay, (size_t)psize);

			if (!n) {
				uf->nomem = true;
				goto fail;
			}
			t->pay = n;
			t->paycap = (size_t)psize;
		}
		/* a payload of 0 bytes: t->pay may be none yet */
		if (psize)
			memcpy(t->pay, t->buf + t->pos + UFT_REC_SIZE,
			       (size_t)psize);
		t->paylen = (uint32_t)psize;
	}
	/* libmcount stamps lost-records records with time 0 */
	r.raw_ts = r.ts;
	/* cmds/dump.c marks a time before the task's previous one */
	r.inverted = r.raw_ts < t->last_raw;
	t->last_raw = r.raw_ts;
	if (r.type == UFT_LOST && r.ts < t->last_ts)
		r.ts = t->last_ts;
	t->last_ts = r.ts;
	t->pos += UFT_REC_SIZE + (size_t)psize;
	t->rec = r;
	return 1;
fail:
	/* the rest of this task is given up; the problem is noted */
	uft_task_finish(t);
	return 0;
}

/* ------------------------------------------------------------ the heap */

static inline bool uft_before(const struct uftrace *uf, uint32_t a, uint32_t b)
{
	const struct uft_task *x = &uf->tasks[a], *y = &uf->tasks[b];

	if (x->rec.ts != y->rec.ts)
		return x->rec.ts < y->rec.ts;
	return x->order < y->order;
}

void uft_sift_down(struct uftrace *uf, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		uint32_t tmp;

		if (l < uf->nheap && uft_before(uf, uf->heap[l], uf->heap[m]))
			m = l;
		if (r < uf->nheap && uft_before(uf, uf->heap[r], uf->heap[m]))
			m = r;
		if (m == i)
			return;
		tmp = uf->heap[i];
		uf->heap[i] = uf->heap[m];
		uf->heap[m] = tmp;
		i = m;
	}
}

/*
 * uft_push() when the stack is full: it doubles up to UFT_STACK_MAX
 * frames; beyond, an entry only counts (said once per task, as a
 * problem: uftrace cannot write such data).
 */
int uft_push_slow(struct uftrace *uf, struct uft_task *t, uint64_t addr,
		  uint64_t ts)
{
	struct uft_frame *n;
	size_t cap;

	if (t->stack_cap >= UFT_STACK_MAX) {
		t->depth++;
		if (!t->too_deep) {
			t->too_deep = true;
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": task %" PRId64 ": calls nested deeper than %u levels (uftrace records %u at most): the deeper ones are counted, not kept, and their exits have no duration",
				    t->path,
				    uft_offset(t) - UFT_REC_SIZE - t->paylen,
				    t->tid, UFT_STACK_MAX, UFT_STACK_MAX - 1);
		}
		return 0;
	}
	cap = t->stack_cap ? t->stack_cap * 2 : 64;
	if (cap > UFT_STACK_MAX)
		cap = UFT_STACK_MAX;
	n = realloc(t->stack, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	t->stack = n;
	t->stack_cap = cap;
	t->stack[t->depth].addr = addr;
	t->stack[t->depth].ts = ts;
	t->depth++;
	return 0;
}

/*
 * Room on t's stack for need more frames, as uft_push_slow() grows it
 * (doubling, UFT_STACK_MAX frames at most): the room it has after, which
 * may be less (at UFT_STACK_MAX, or out of memory: the frames that do
 * not fit go the whole way, to uft_push(), which says so).
 */
size_t uft_stack_room(struct uft_task *t, size_t need)
{
	size_t cap = t->stack_cap ? t->stack_cap : 64;
	struct uft_frame *n;

	if (t->depth > t->stack_cap)
		return 0;
	while (cap - t->depth < need && cap < UFT_STACK_MAX)
		cap *= 2;
	if (cap > UFT_STACK_MAX)
		cap = UFT_STACK_MAX;
	if (cap > t->stack_cap) {
		n = realloc(t->stack, cap * sizeof(*n));
		if (n) {
			t->stack = n;
			t->stack_cap = cap;
		}
	}
	return t->stack_cap - t->depth;
}

/*
 * Follow the call stack of t through record r: the depth of an entry is
 * the number of frames below it; an exit pops its frame (and any frames
 * above it whose exits were never seen) and knows its duration. sess is
 * the session of t at r's time (uft_task_session).
 */
int uft_track(struct uftrace *uf, struct uft_task *t,
	      const struct uft_session *sess, const struct uft_rec *r,
	      struct uft_cur *c)
{
	size_t i, found, unknown;

	c->duration = 0;
	if (r->type == UFT_LOST) {
		t->resync = true;
		c->depth = r->depth;
		return 0;
	}
	if (r->type == UFT_EVENT) {
		c->depth = r->depth;
		return 0;
	}
	/* an exec starts a new session, and the new program its own stack */
	if (t->stack_sess && sess != t->stack_sess)
		t->resync = true;
	t->stack_sess = sess;
	if (t->resync) {
		/*
		 * The data starts (or restarts after lost records) inside
		 * calls we never saw: uftrace's own depth says how deep, and
		 * which of the frames we had still hold. The other writers'
		 * depths are not to be trusted: start from nothing.
		 */
		t->resync = false;
		if (uf->writer == UFT_WRITER_UFTRACE) {
			size_t want = r->depth + (r->type == UFT_EXIT);
			size_t keep = t->depth < r->depth ? t->depth : r->depth;

			if (r->type == UFT_EXIT && t->depth > r->depth &&
			    t->stack[r->depth].addr == r->addr)
				keep = want;
			t->depth = keep;
			while (t->depth < want)
				if (uft_push(uf, t, UFT_NO_ADDR, 0) < 0)
					return -ENOMEM;
		} else {
			t->depth = 0;
		}
	}
	if (r->type == UFT_ENTRY) {
		c->depth = t->depth;
		return uft_push(uf, t, r->addr, r->ts);
	}
	/* the exit of a frame deeper than those kept: one level up */
	if (t->depth > t->stack_cap) {
		c->depth = --t->depth;
		return 0;
	}
	/*
	 * exit: its frame is the top, or further down if exits were lost;
	 * else the topmost frame entered before the data began
	 */
	found = SIZE_MAX;
	unknown = SIZE_MAX;
	for (i = t->depth; i-- > 0;) {
		if (t->stack[i].addr == r->addr) {
			found = i;
			break;
		}
		if (t->stack[i].addr == UFT_NO_ADDR && unknown == SIZE_MAX)
			unknown = i;
	}
	i = found != SIZE_MAX ? found : unknown;
	if (i == SIZE_MAX) {
		/*
		 * an exit we never saw enter (a skipped record): uftrace's own
		 * depth says where; else it is below all we know
		 */
		i = uf->writer == UFT_WRITER_UFTRACE && r->depth <= t->depth ?
			    r->depth : 0;
		t->depth = i;
		c->depth = i;
		return 0;
	}
	uft_pop(t, i, r, c);
	return 0;
}
