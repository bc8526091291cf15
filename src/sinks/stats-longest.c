// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --stats: the longest exits of each reason, one row each: when each
 * began, in which domain, on which VM and vCPU, its reason, how long, what
 * it was about and the guest function it left. The reasons table says
 * which reasons cost the most and how long the worst of each took; these
 * rows say where to look on the timeline for those worst exits. Of each
 * reason, not of all: on real hosts the longest exits of all are halts,
 * the guest idle, and would hide the longest MSR write or interrupt.
 *
 * A heap per reason of its --stats-top (default STATS_LONGEST) longest
 * paired exits, the one to give way at its root: the shortest; of equal
 * ones, the one that began last; of those, the one that ended last. An
 * exit no longer than its reason's root costs one compare
 * (stats_longest_wants()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* a gives way before b: shorter, else began later, else ended later */
static bool stats_long_below(const struct stats_long *a,
			     const struct stats_long *b)
{
	if (a->dur != b->dur)
		return a->dur < b->dur;
	if (a->start != b->start)
		return a->start > b->start;
	return a->seq > b->seq;
}

static void stats_long_down(struct stats_long *h, size_t n, size_t i)
{
	struct stats_long t = h[i];

	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= n)
			break;
		if (k + 1 < n && stats_long_below(&h[k + 1], &h[k]))
			k++;
		if (!stats_long_below(&h[k], &t))
			break;
		h[i] = h[k];
		i = k;
	}
	h[i] = t;
}

static void stats_long_up(struct stats_long *h, size_t i)
{
	struct stats_long t = h[i];

	while (i) {
		size_t p = (i - 1) / 2;

		if (!stats_long_below(&t, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = t;
}

int stats_longest_add(struct sink_stats *c, const struct sink_vcpu *v,
		      uint64_t dur)
{
	struct stats_long e = {
		.dur = dur,
		.start = v->exit_ts,
		.seq = c->x.paired,
		.key = v->key,
		.kind_value = v->kind_value,
		.host_tid = v->host_tid,
		.sym = v->sym,
		.reason = v->ref,
		.kind = v->kind,
		.domain = (uint8_t)exits_key_domain(v->reason),
	};
	struct stats_lheap *l;

	if (v->ref >= c->nlheaps) {
		/* a reason's heap, made with its first exit */
		size_t n = c->nlheaps ? 2 * c->nlheaps : 16;
		struct stats_lheap *grown;

		while (n <= v->ref)
			n *= 2;
		grown = realloc(c->lheaps, n * sizeof(*c->lheaps));
		if (!grown)
			return -ENOMEM;
		memset(grown + c->nlheaps, 0,
		       (n - c->nlheaps) * sizeof(*grown));
		c->lheaps = grown;
		c->nlheaps = n;
	}
	l = &c->lheaps[v->ref];
	if (l->n < c->cap_longest && l->n == l->alloc) {
		/* grown as rows come: --stats-top may ask for millions */
		size_t n = l->alloc ? 2 * l->alloc : 1;
		struct stats_long *grown;

		if (n > c->cap_longest)
			n = c->cap_longest;
		grown = realloc(l->h, n * sizeof(*l->h));
		if (!grown)
			return -ENOMEM;
		l->h = grown;
		l->alloc = (uint32_t)n;
	}
	if (l->n < c->cap_longest) {
		l->h[l->n] = e;
		stats_long_up(l->h, l->n++);
		c->nlongest++;
	} else if (stats_long_below(&l->h[0], &e)) {
		l->h[0] = e;
		stats_long_down(l->h, l->n, 0);
	}
	return 0;
}

/* longest first (qsort) */
static int stats_long_cmp(const void *pa, const void *pb)
{
	const struct stats_long *a = pa, *b = pb;

	return stats_long_below(a, b) - stats_long_below(b, a);
}

static void stats_long_row(const struct sink_stats *c, size_t i,
			   struct stats_cell *cells)
{
	const struct stats_long *e = &c->longest[i];
	const char *none = c->csv ? "" : "-";
	const char *kind = stats_kind_name(e->kind);
	size_t col = 0;

	stats_ts(c, &cells[col++], e->start);
	stats_str(&cells[col++], stats_domain((enum domain)e->domain));
	if (sink_key_kind(e->key) == SINK_VCPU) {
		stats_str(&cells[col++],
			  c->x.pairs.vms.names[sink_key_vm(e->key)]);
		stats_u64(&cells[col++], sink_key_vcpu(e->key));
	} else {
		stats_str(&cells[col++], none);
		stats_str(&cells[col++], c->csv ? "" : "?");
	}
	stats_u64(&cells[col++], (uint64_t)e->host_tid);
	stats_reason_cell(&cells[col++],
			  stats_row(&c->reasons, e->reason));
	stats_dur(c, &cells[col++], e->dur);
	if (kind)
		cells[col].len = (size_t)snprintf(cells[col].s, STATS_CELL,
						  "%s 0x%" PRIx64, kind,
						  e->kind_value);
	else
		stats_str(&cells[col], none);
	col++;
	stats_str(&cells[col++], e->sym ? e->sym : none);
}

void stats_longest_heads(const struct sink_stats *c, const char **head,
			 char *dur, size_t size)
{
	static const char *const text[STATS_LONGEST_COLS] = {
		"domain", "vm", "vcpu", "host_tid", "reason", "duration",
		"about", "guest function",
	};

	memcpy(head, text, sizeof(text));
	if (c->csv) {
		snprintf(dur, size, "duration_%s", c->time.ns ? "us" : "ticks");
		head[5] = dur;
		head[7] = "guest_function";
	} else if (c->time.ns) {
		/*
		 * µs, not the unit of the longest (stats_units()): a halt
		 * of seconds beside a write of 300 ns would leave it 0.000
		 */
		head[5] = "duration(µs)";
	}
}

int stats_longest_table(struct sink_stats *c)
{
	const char *head[1 + STATS_LONGEST_COLS];
	char start[16], dur[24];
	struct stats_table t = {
		.name = "longest_exits",
		.ncols = 1 + STATS_LONGEST_COLS,
		.head = head,
		.right = "r" STATS_LONGEST_RIGHT,
		.nrows = c->nlongest,
		.row = stats_long_row,
	};
	size_t i, n;
	int ret = 0;

	head[0] = "start";
	if (c->csv) {
		snprintf(start, sizeof(start), "start_%s", stats_ts_unit(c));
		head[0] = start;
	}
	stats_longest_heads(c, head + 1, dur, sizeof(dur));
	/* every reason's rows in one array, longest first */
	free(c->longest);
	c->longest = c->nlongest ? malloc(c->nlongest * sizeof(*c->longest))
				 : NULL;
	if (c->nlongest && !c->longest)
		return -ENOMEM;
	for (i = n = 0; i < c->nlheaps; i++) {
		if (!c->lheaps[i].n)
			continue;	/* a reason with no paired exit: no heap */
		memcpy(c->longest + n, c->lheaps[i].h,
		       c->lheaps[i].n * sizeof(*c->longest));
		n += c->lheaps[i].n;
	}
	if (c->nlongest)
		qsort(c->longest, c->nlongest, sizeof(*c->longest),
		      stats_long_cmp);
	if (c->mode == STATS_JSON) {
		/* how many of each reason: what a merge of files can add */
		ret = stats_json_member(c, "longest_per_reason");
		if (ret == 0)
			ret = stats_printf(c->sink.out, "%zu", c->cap_longest);
	} else if (c->csv) {
		ret = stats_put(c->sink.out, "\n", 1);
	} else if (c->cap_longest == 1) {
		ret = stats_printf(c->sink.out,
				   "\nThe longest exit of each reason (longest first; start: the exit's time stamp in %s, as ts prints it)\n",
				   stats_ts_unit(c));
	} else {
		ret = stats_printf(c->sink.out,
				   "\nThe longest exits of each reason (the %zu longest of each, longest first; start: the exit's time stamp in %s, as ts prints it)\n",
				   c->cap_longest, stats_ts_unit(c));
	}
	return ret ? ret : stats_table_out(c, &t);
}

void stats_longest_fini(struct sink_stats *c)
{
	size_t i;

	for (i = 0; i < c->nlheaps; i++)
		free(c->lheaps[i].h);
	free(c->lheaps);
	free(c->longest);
	c->lheaps = NULL;
	c->longest = NULL;
	c->nlheaps = c->nlongest = 0;
}
