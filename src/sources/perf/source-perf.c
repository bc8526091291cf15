// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.data files (`perf record`, `perf kvm stat record`, `perf sched
 * record`): their tracepoint samples, normal or pipe files (`perf record
 * -o -`), either byte order, zstd-compressed or not, read by hand from
 * the documented layout; libtraceevent decodes each sample's raw record
 * from the formats in HEADER_TRACING_DATA.
 *
 * Events come in the order `perf script` prints them (perf-order.c); time
 * stamps are perf's clock (the kernel's local clock in ns, or the clock
 * `perf record -k` chose: -k mono is CLOCK_MONOTONIC). Other samples
 * (cycles, cpu-clock) are no events here, as `perf script -F trace:…`
 * prints nothing for them; a file without any tracepoint event is
 * refused when it is opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-int.h"
#include "tracedat/tracedat-guard.h"

static bool perf_probe(const char *path, const unsigned char *head,
		       size_t len, bool is_dir)
{
	return !is_dir && head && len >= 8 &&
	       (!memcmp(head, PERF_MAGIC, 8) ||
		!memcmp(head, PERF_MAGIC_SWAPPED, 8) ||
		!memcmp(head, PERF_MAGIC_V1, 8));
}

/* An attr section's entry in a version 1 file: one of perf's attr ABIs. */
static bool perf_v1_attr_size(uint64_t n)
{
	return n == 64 + 16 || n == 72 + 16 || n == 80 + 16 || n == 96 + 16 ||
	       n == 104 + 16;
}

/*
 * The byte order of a file: PERFILE2 says it in its magic; perf 3.x's
 * PERFFILE (version 1) does not, and perf takes the order in which the
 * attr size (at offset 16) is one of its attr ABIs' (a pipe: the host's).
 * -EIO when none fits.
 */
static int perf_byte_order(struct perf *p, const unsigned char *head,
			   size_t have, struct diag *d)
{
	bool host_be = false;

#ifdef WORDS_BIGENDIAN
	host_be = true;
#endif
	p->swap = false;
	if (memcmp(head, PERF_MAGIC_V1, 8)) {
		p->file_be = !memcmp(head, PERF_MAGIC_SWAPPED, 8);
		p->swap = p->file_be != host_be;
		return 0;
	}
	if (bo_u64(false, head + 8) != PERF_PIPE_HEADER_SIZE) {
		if (have >= 24 && perf_v1_attr_size(bo_u64(true, head + 16)) &&
		    !perf_v1_attr_size(bo_u64(false, head + 16)))
			p->swap = true;
		else if (have < 24 || !perf_v1_attr_size(bo_u64(false, head + 16))) {
			diag_set(d, "%s: offset 0x10: a perf.data of version 1 (PERFFILE) whose byte order cannot be told: its attr size is none of perf's",
				 p->name);
			return -EIO;
		}
	}
	p->file_be = p->swap != host_be;
	return 0;
}

static void perf_close(struct source *src);

/* What a file without tracepoint events holds, for the refusal. */
static void perf_no_tracepoints(struct source *src, struct perf *p,
				struct diag *d)
{
	uint32_t i, k;

	diag_set(d, "%s: a perf.data without tracepoint events", src->name);
	if (p->nattrs)
		diag_add(d, " (it holds");
	for (i = 0; i < p->nattrs && i < 8; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(p->attrs[k].name, p->attrs[i].name))
				break;
		if (k == i)
			diag_add(d, "%s%s", i ? ", " : " ", p->attrs[i].name);
	}
	if (p->nattrs > 8)
		diag_add(d, ", …");
	if (p->nattrs)
		diag_add(d, ")");
	diag_add(d, ": kvmtrace_format reads tracepoint samples; record them with e.g. perf record -e 'kvm:*', perf kvm stat record or perf sched record");
}

static int perf_open(struct source *src, const char *path, struct diag *d)
{
	unsigned char head[24];
	struct perf *p;
	size_t have = 0;
	off_t start;
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p)
		goto nomem;
	src->priv = p;
	p->name = src->name;
	trace_seq_init(&p->info);
	p->in.end = UINT64_MAX;
	p->clockid = -1;
	p->slots.rec_max = 65536;	/* a raw record is at most 64 KiB */
	if (path) {
		p->in.fd = open(path, O_RDONLY | O_CLOEXEC);
		if (p->in.fd < 0) {
			ret = -errno;
			diag_set(d, "%s: cannot open: %s", src->name,
				 strerror(errno));
			free(p);
			src->priv = NULL;
			return ret;
		}
		p->in.own_fd = true;
	} else {
		p->in.fd = src->fd >= 0 ? src->fd : STDIN_FILENO;
		p->in.own_fd = src->fd >= 0 && src->own_fd;
		src->fd = -1;
	}
	p->in.cap = 1u << 18;
	p->in.buf = malloc(p->in.cap);
	if (!p->in.buf)
		goto nomem;
	if (!path && src->head_len) {
		memcpy(p->in.buf, src->head, src->head_len);
		p->in.len = src->head_len;
	}
	if (perf_threads_init(p) < 0)
		goto nomem;
	p->guard = tdguard_create(src->name, "perf.data");
	if (!p->guard)
		goto nomem;
	tep_set_loglevel(TEP_LOG_NONE);
	start = path || src->head_len ? -1 : lseek(p->in.fd, 0, SEEK_CUR);
	ret = perf_in_fill(p, 24, d);
	if (ret < 0)
		goto error;
	have = p->in.len - p->in.pos;
	if (have < 16) {
		diag_set(d, "%s: truncated perf.data: %zu bytes", src->name,
			 have);
		ret = -EIO;
		goto error;
	}
	memcpy(head, p->in.buf + p->in.pos, have < 24 ? have : 24);
	ret = perf_byte_order(p, head, have, d);
	if (ret < 0)
		goto error;
	if (perf_u64(p, head + 8) == PERF_PIPE_HEADER_SIZE) {
		p->pipe = true;
		p->in.pos += 16;
		ret = perf_open_pipe(p, d);
	} else if (perf_u64(p, head + 8) == PERF_HEADER_SIZE ||
		   perf_u64(p, head + 8) == PERF_HEADER_SIZE_OLD) {
		struct stat st;

		/* the header is read again, and the formats follow the data */
		if (!path && (start != 0 || fstat(p->in.fd, &st) < 0 ||
			      !S_ISREG(st.st_mode))) {
			diag_set(d, "%s: a perf.data written to a file (not with perf record -o -) cannot be read from a pipe: its event formats follow the data; name the file",
				 src->name);
			ret = -EINVAL;
			goto error;
		}
		p->in.len = p->in.pos = 0;
		p->in.off = 0;
		ret = perf_open_file(p, d);
	} else {
		diag_set(d, "%s: offset 0x8: a perf.data header of %" PRIu64 " bytes (perf writes 104, or 16 in a pipe; perf 2.6 wrote 72)",
			 src->name, perf_u64(p, head + 8));
		ret = -EIO;
	}
	if (ret < 0)
		goto error;
	if (p->ntp && !p->have_tracing) {
		diag_set(d, "%s: %s perf.data with tracepoint events but without their formats (HEADER_TRACING_DATA)%s: its samples cannot be decoded",
			 src->name, p->pipe ? "a pipe" : "a",
			 !p->pipe && !p->data_size
				 ? ", and a data size of 0: perf record did not finish writing it (killed?)"
				 : "");
		ret = -EIO;
		goto error;
	}
	if (!p->ntp) {
		perf_no_tracepoints(src, p, d);
		ret = -EMEDIUMTYPE;	/* exit 2: inputs.c */
		goto error;
	}
	ret = perf_ksyms_setup(src, p, d);
	if (ret < 0)
		goto error;
	src->ntypes = p->nattrs;
	src->clock = CLOCK_NS;
	/* perf record -k mono, realtime, monotonic_raw, boottime, tai; else
	 * perf's own clock, the kernel's local clock (clock.c's names) */
	src->clock_base = p->clockid == 1 ? "mono" : p->clockid == 0 ? "wall" :
			  p->clockid == 4 ? "raw" : p->clockid == 7 ? "boot" :
			  p->clockid == 11 ? "tai" : p->clockid == -1 ? "local" :
								      NULL;
	src->hostname = p->hostname;	/* now the source's */
	p->hostname = NULL;
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	ret = -ENOMEM;
error:
	perf_close(src);
	return ret;
}

/* The event of sample s (its rec). */
static inline void perf_event_of(struct source *src,
				 const struct perf_sample *s, struct event *ev)
{
	ev->ts = s->time;
	ev->raw_ts = s->time;
	ev->has_ts = true;
	ev->seq = s->seq;
	ev->cpu = s->cpu;
	ev->pid = s->tid;
	ev->has_vcpu = false;
	ev->type = &s->attr->t;
	ev->src = src;
	ev->rec = s;
}

/*
 * At the end (or where reading stops): the records that came after a
 * round had let later ones out, once, as perf script warns of them
 */
static void perf_say_unordered(struct source *src, struct perf *p)
{
	struct diag d;

	if (!p->unordered || p->unordered_said || !src->say)
		return;
	p->unordered_said = true;
	diag_set(&d, "%s: %" PRIu64 " record%s came after a FINISHED_ROUND had let later ones out; %s in the stream after those, as perf script has %s (\"%" PRIu64 " out of order events recorded\")",
		 src->name, p->unordered, p->unordered == 1 ? "" : "s",
		 p->unordered == 1 ? "it is" : "they are",
		 p->unordered == 1 ? "it" : "them", p->unordered);
	src->say(src->say_arg, d.msg);
}

static int perf_next(struct source *src, struct event *ev, struct diag *d)
{
	struct perf *p = src->priv;
	int ret;

	/* libtraceevent crashed printing the last event: no more */
	if (tdguard_failed(p->guard, d))
		return -EIO;
	ret = perf_order_next(p, d);
	if (ret <= 0) {
		perf_say_unordered(src, p);
		return ret;
	}
	perf_event_of(src, &p->cur, ev);
	return 1;
}

/*
 * source_ops.next_batch: the samples a round let out, without a call per
 * event (perf_order_batch() says where a batch ends).
 */
static int perf_next_batch(struct source *src, struct event *ev, size_t max,
			   struct diag *d)
{
	struct perf *p = src->priv;
	size_t i;
	int n;

	if (tdguard_failed(p->guard, d))
		return -EIO;
	if (max > p->capbcur) {
		struct perf_sample *b = realloc(p->bcur, max * sizeof(*b));

		if (!b) {
			diag_set(d, "%s: out of memory", src->name);
			return -ENOMEM;
		}
		p->bcur = b;
		p->capbcur = max;
	}
	n = perf_order_batch(p, p->bcur, max, d);
	if (n <= 0)
		perf_say_unordered(src, p);
	for (i = 0; n > 0 && i < (size_t)n; i++)
		perf_event_of(src, &p->bcur[i], &ev[i]);
	return n;
}

static void perf_close(struct source *src)
{
	struct perf *p = src->priv;
	uint32_t i;

	if (!p)
		return;
	if (p->in.own_fd && p->in.fd >= 0)
		close(p->in.fd);
	free(p->in.buf);
	free(p->bcur);
	perf_print_free(p);
	for (i = 0; i < p->nattrs; i++)
		free(p->attrs[i].name);
	free(p->attrs);
	free(p->ids);
	perf_ksyms_free(p);
	if (p->tep)
		tep_free(p->tep);
	trace_seq_destroy(&p->info);
	tdguard_destroy(p->guard);
	perf_order_free(p);
	perf_zstd_free(p);
	perf_fields_free(p);
	free(p->hostname);
	free(p);
	src->priv = NULL;
}

const struct source_ops source_perf_ops = {
	.kind = "perf.data",
	.stream = true,
	.probe = perf_probe,
	.open = perf_open,
	.next = perf_next,
	.next_batch = perf_next_batch,
	.close = perf_close,
	.bind = perf_bind,
	.field = perf_field,
	.each_type = perf_each_type,
	.fields = perf_fields,
	.render_default = perf_render_default,
};
