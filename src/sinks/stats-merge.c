// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kvmtrace_format --stats[=FORMAT] A.json B.json …: statistics saved by
 * --stats=json, read back and printed as one run over every trace would
 * print them. Each exits_by_reason row carries its histogram (hist.h's
 * fixed buckets), so rows of one reason add bucket by bucket: counts,
 * totals, min and max are exact, and the percentiles are those one run
 * would compute from the same buckets. Events add by (domain, event, id);
 * the inputs are listed with the file they came from; the longest exits
 * of all the files are listed with the file of each (stats-merge-long.c).
 * The per-vCPU tables are per host and are not merged.
 *
 * Every file must have the same duration unit and bucket layout; a
 * histogram that does not hold its row's count, min and max is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outbuf.h"
#include "stats-merge-int.h"

/* FNV-1a of the strings and numbers that make a row's key. */
static uint64_t sm_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	if (!h)
		h = 0xcbf29ce484222325ull;
	for (i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return (h ^ 0xff) * 0x100000001b3ull;	/* a separator */
}

/* ------------------------------------------------------------ reading */

/* Where a row's histogram agrees with its count, min and max. */
static int sm_hist_check(struct sj *j, const struct hist *h,
			 uint64_t buckets, uint64_t lo, uint64_t hi)
{
	uint64_t low, width;

	if (buckets != h->n)
		return sj_error(j, "the row's histogram holds %" PRIu64 " values and its count says %" PRIu64,
				buckets, h->n);
	if (!h->n)
		return 0;
	hist_bucket((uint32_t)lo, &low, &width);
	if (h->min < low || h->min - low >= width)
		return sj_error(j, "the row's min is not in its first bucket (%" PRIu64 ")", lo);
	hist_bucket((uint32_t)hi, &low, &width);
	if (h->max < low || h->max - low >= width)
		return sj_error(j, "the row's max is not in its last bucket (%" PRIu64 ")", hi);
	return 0;
}

/* "hist":[[index,count],…] into h (n, total, min, max left to the row). */
static int sm_hist(struct sj *j, struct hist *h, uint64_t *sum,
		   uint64_t *lo, uint64_t *hi)
{
	uint64_t index, count, last = 0;
	bool first = true, any = false;
	int more, ret;

	*sum = 0;
	if (sj_expect(j, '[') < 0)
		return -EINVAL;
	while ((more = sj_more(j, ']', &first)) == 1) {
		if (sj_expect(j, '[') < 0 || sj_u64(j, &index) < 0 ||
		    sj_expect(j, ',') < 0)
			return -EINVAL;
		if (sj_u64(j, &count) < 0 || sj_expect(j, ']') < 0)
			return -EINVAL;
		if (index >= HIST_NBUCKETS || (any && index <= last) || !count)
			return sj_error(j, "bucket [%" PRIu64 ",%" PRIu64 "]: buckets go up from 0 to %u, each with a count",
					index, count, HIST_NBUCKETS - 1);
		ret = hist_add_bucket(h, (uint32_t)index, count);
		if (ret == -ENOMEM)
			return ret;
		if (ret < 0 || *sum + count < *sum)
			return sj_error(j, "bucket counts overflow");
		*sum += count;
		if (!any)
			*lo = index;
		*hi = last = index;
		any = true;
	}
	return more < 0 ? -EINVAL : 0;
}

/* A duration cell (µs with three decimals, or ticks) in the run's unit. */
int sm_dur(struct sj *j, const struct stats_merged *m, bool *null,
	   uint64_t *v)
{
	struct sj_num n;

	if (sj_number(j, &n) < 0)
		return -EINVAL;
	*null = n.null;
	*v = 0;
	if (!n.null && sj_num_scaled(&n, !strcmp(m->unit, "us"), v) < 0)
		return sj_error(j, "not a duration in %s", m->unit);
	return 0;
}

/* One row of exits_by_reason, added to its reason's. */
static int sm_reason(struct sink_stats *c, struct stats_merged *m,
		     struct sj *j)
{
	char key[64], domain[16] = "", name[SM_NAME] = "", want[32];
	uint64_t value = 0, count = 0, unpaired = 0, v, sum = 0, lo = 0,
		 hi = 0, k;
	struct hist h = { 0 };
	bool first = true, has_value = false, has_hist = false, null;
	bool tmin = false, tmax = false, ttot = false;
	struct stats_reason *r;
	struct stats_dist *d;
	struct sj_num num;
	uint32_t idx;
	bool made;
	int more, ret = -EINVAL;

	if (sj_expect(j, '{') < 0)
		return -EINVAL;
	while ((more = sj_more(j, '}', &first)) == 1) {
		if (sj_string(j, key, sizeof(key)) < 0 || sj_expect(j, ':') < 0)
			goto out;
		if (!strcmp(key, "domain")) {
			if (sj_string(j, domain, sizeof(domain)) < 0)
				goto out;
		} else if (!strcmp(key, "reason")) {
			if (sj_string_or_null(j, name, sizeof(name), &null) < 0)
				goto out;
		} else if (!strcmp(key, "value")) {
			if (sj_number(j, &num) < 0)
				goto out;
			has_value = !num.null;
			if (has_value && sj_num_scaled(&num, false, &value) < 0) {
				sj_error(j, "a reason's value is a whole number");
				goto out;
			}
		} else if (!strcmp(key, "count")) {
			if (sj_u64(j, &count) < 0)
				goto out;
		} else if (!strcmp(key, "unpaired")) {
			if (sj_u64(j, &unpaired) < 0)
				goto out;
		} else if (snprintf(want, sizeof(want), "total_%s", m->unit),
			   !strcmp(key, want)) {
			if (sm_dur(j, m, &null, &h.total) < 0)
				goto out;
			ttot = !null;
		} else if (snprintf(want, sizeof(want), "min_%s", m->unit),
			   !strcmp(key, want)) {
			if (sm_dur(j, m, &null, &h.min) < 0)
				goto out;
			tmin = !null;
		} else if (snprintf(want, sizeof(want), "max_%s", m->unit),
			   !strcmp(key, want)) {
			if (sm_dur(j, m, &null, &h.max) < 0)
				goto out;
			tmax = !null;
		} else if (!strcmp(key, "hist")) {
			ret = sm_hist(j, &h, &sum, &lo, &hi);
			if (ret < 0)
				goto out;
			ret = -EINVAL;
			has_hist = true;
		} else if (sj_skip(j) < 0) {
			goto out;
		}
	}
	if (more < 0)
		goto out;
	h.n = count;
	if (!has_hist) {
		sj_error(j, "an exits_by_reason row without its histogram (\"hist\")");
		goto out;
	}
	if (count && (!ttot || !tmin || !tmax)) {
		sj_error(j, "a row with exits needs its total, min and max");
		goto out;
	}
	if (sm_hist_check(j, &h, sum, lo, hi) < 0)
		goto out;
	/* the row of this reason: by domain, name and value */
	k = sm_hash(0, domain, strlen(domain));
	k = sm_hash(k, name, strlen(name));
	k = sm_hash(k, &value, has_value ? sizeof(value) : 0);
	if (!strcmp(domain, "all")) {
		d = &c->all;
	} else {
		if (stats_rows_get(&c->reasons, k, &idx, &made) < 0) {
			ret = -ENOMEM;
			goto out;
		}
		r = stats_row(&c->reasons, idx);
		if (made && idx == c->reasons.other) {
			r->key = STATS_OTHER;
		} else if (made) {
			r->key = !has_value || !strcmp(domain, "-")
					 ? STATS_OTHER
					 : exits_reason_key(value, false,
							    strcmp(domain, "guest")
								    ? DOMAIN_HOST
								    : DOMAIN_GUEST);
			r->name = strdup(name);
			if (!r->name) {
				ret = -ENOMEM;
				goto out;
			}
		}
		d = &r->d;
	}
	if (hist_merge(&d->h, &h) < 0) {
		ret = -ENOMEM;
		goto out;
	}
	v = d->unpaired + unpaired;
	d->unpaired = v < unpaired ? UINT64_MAX : v;
	ret = 0;
out:
	hist_fini(&h);
	return ret;
}

/* One row of events, added to its counter. */
static int sm_event(struct sink_stats *c, struct sj *j)
{
	char key[32], domain[16] = "", name[SM_NAME] = "", id[32] = "";
	bool first = true, null_id = true, null;
	uint64_t count = 0, k, idv = 0;
	struct stats_counter *e;
	void *grown;
	uint32_t i;
	int more;

	if (sj_expect(j, '{') < 0)
		return -EINVAL;
	while ((more = sj_more(j, '}', &first)) == 1) {
		if (sj_string(j, key, sizeof(key)) < 0 || sj_expect(j, ':') < 0)
			return -EINVAL;
		if (!strcmp(key, "domain")) {
			if (sj_string(j, domain, sizeof(domain)) < 0)
				return -EINVAL;
		} else if (!strcmp(key, "event")) {
			if (sj_string_or_null(j, name, sizeof(name), &null) < 0)
				return -EINVAL;
		} else if (!strcmp(key, "id")) {
			if (sj_string_or_null(j, id, sizeof(id), &null_id) < 0)
				return -EINVAL;
		} else if (!strcmp(key, "count")) {
			if (sj_u64(j, &count) < 0)
				return -EINVAL;
		} else if (sj_skip(j) < 0) {
			return -EINVAL;
		}
	}
	if (more < 0)
		return -EINVAL;
	if (!null_id)
		idv = strtoull(id, NULL, 16);
	k = sm_hash(sm_hash(sm_hash(0, domain, strlen(domain)), name,
			    strlen(name)), id, strlen(id));
	i = sink_map_find(&c->id_map, k);
	if (i == SINK_MAP_EMPTY) {
		if (c->ncounters >= SINK_MAXKEYS * 4)
			return sj_error(j, "more than %u distinct events", SINK_MAXKEYS * 4);
		grown = c->counters;
		if (sink_reserve(&grown, &c->cap_counters, c->ncounters,
				 sizeof(*c->counters)) < 0)
			return -ENOMEM;
		c->counters = grown;
		e = &c->counters[c->ncounters];
		memset(e, 0, sizeof(*e));
		e->domain = strcmp(domain, "guest") ? DOMAIN_HOST : DOMAIN_GUEST;
		e->has_id = !null_id;
		e->id = idv;
		e->name = strdup(name);
		if (!e->name || sink_map_add(&c->id_map, k, (uint32_t)c->ncounters) < 0)
			return -ENOMEM;
		i = (uint32_t)c->ncounters++;
	}
	c->counters[i].count += count;
	c->events += count;
	return 0;
}

static int sm_input(struct stats_merged *m, const char *file, struct sj *j)
{
	char key[32], name[SM_NAME] = "", file_in[SM_NAME] = "";
	struct stats_minput *in;
	bool first = true, null;
	void *grown = m->inputs;
	int more;

	if (sink_reserve(&grown, &m->cap, m->ninputs, sizeof(*m->inputs)) < 0)
		return -ENOMEM;
	m->inputs = grown;
	in = &m->inputs[m->ninputs];
	memset(in, 0, sizeof(*in));
	if (sj_expect(j, '{') < 0)
		return -EINVAL;
	while ((more = sj_more(j, '}', &first)) == 1) {
		if (sj_string(j, key, sizeof(key)) < 0 || sj_expect(j, ':') < 0)
			return -EINVAL;
		if (!strcmp(key, "input")) {
			if (sj_string(j, name, sizeof(name)) < 0)
				return -EINVAL;
		} else if (!strcmp(key, "file")) {
			/* a merged file's inputs keep theirs */
			if (sj_string_or_null(j, file_in, sizeof(file_in), &null) < 0)
				return -EINVAL;
		} else if (!strcmp(key, "kind")) {
			if (sj_string(j, in->kind, sizeof(in->kind)) < 0)
				return -EINVAL;
		} else if (!strcmp(key, "domain")) {
			if (sj_string(j, in->domain, sizeof(in->domain)) < 0)
				return -EINVAL;
		} else if (!strcmp(key, "events")) {
			if (sj_u64(j, &in->events) < 0)
				return -EINVAL;
		} else if (sj_skip(j) < 0) {
			return -EINVAL;
		}
	}
	if (more < 0)
		return -EINVAL;
	in->file = strdup(*file_in ? file_in : file);
	in->input = strdup(name);
	if (!in->file || !in->input) {
		free(in->file);
		free(in->input);
		return -ENOMEM;
	}
	m->ninputs++;
	return 0;
}

/* An array member: each element through fn. */
#define SM_ARRAY(j, call)						\
	({								\
		bool first_ = true;					\
		int more_, r_ = sj_expect(j, '[');			\
		while (r_ == 0 && (more_ = sj_more(j, ']', &first_)) == 1) \
			r_ = (call);					\
		r_ ? r_ : more_ < 0 ? -EINVAL : 0;			\
	})

/* "histogram":{…}: the layout, which must be this build's. */
static int sm_layout(struct sj *j, struct stats_merged *m)
{
	char key[32], s[32];
	bool first = true;
	uint64_t v;
	int more;

	if (sj_expect(j, '{') < 0)
		return -EINVAL;
	while ((more = sj_more(j, '}', &first)) == 1) {
		if (sj_string(j, key, sizeof(key)) < 0 || sj_expect(j, ':') < 0)
			return -EINVAL;
		if (!strcmp(key, "layout") || !strcmp(key, "unit")) {
			if (sj_string(j, s, sizeof(s)) < 0)
				return -EINVAL;
			if (!strcmp(key, "layout") && strcmp(s, "log-linear"))
				return sj_error(j, "histogram layout '%s', not log-linear", s);
			if (!strcmp(key, "unit") &&
			    strcmp(s, !strcmp(m->unit, "us") ? "ns" : "ticks"))
				return sj_error(j, "histogram unit '%s' beside durations in %s",
						s, m->unit);
		} else if (!strcmp(key, "sub_bits") || !strcmp(key, "buckets")) {
			if (sj_u64(j, &v) < 0)
				return -EINVAL;
			if (v != (!strcmp(key, "sub_bits") ? HIST_SUB_BITS
							    : HIST_NBUCKETS))
				return sj_error(j, "a histogram of another layout (%s %" PRIu64 ", here %u): it does not add to this one's",
						key, v, !strcmp(key, "sub_bits")
						? HIST_SUB_BITS : HIST_NBUCKETS);
		} else if (sj_skip(j) < 0) {
			return -EINVAL;
		}
	}
	return more < 0 ? -EINVAL : 0;
}

/* One saved document into c. */
static int sm_doc(struct sink_stats *c, struct stats_merged *m,
		  const char *name, struct sj *j)
{
	char key[64], unit[16];
	bool first = true, layout = false;
	uint64_t v, per_reason = 0;
	size_t longs = m->nlongs;
	int more, ret = 0;

	if (sj_expect(j, '{') < 0)
		return -EINVAL;
	while (ret == 0 && (more = sj_more(j, '}', &first)) == 1) {
		if (sj_string(j, key, sizeof(key)) < 0 || sj_expect(j, ':') < 0)
			return -EINVAL;
		if (!strcmp(key, "version")) {
			if (sj_u64(j, &v) < 0)
				return -EINVAL;
			if (v != 1)
				return sj_error(j, "version %" PRIu64 " of the saved statistics; this kvmtrace_format reads version 1", v);
		} else if (!strcmp(key, "duration_unit")) {
			if (sj_string(j, unit, sizeof(unit)) < 0)
				return -EINVAL;
			if (strcmp(unit, "us") && strcmp(unit, "ticks"))
				return sj_error(j, "durations in '%s', neither us nor ticks", unit);
			if (!m->unit[0]) {
				strcpy(m->unit, unit);
				m->first = name;
			} else if (strcmp(unit, m->unit)) {
				return sj_error(j, "durations in %s, and %s's in %s: statistics of different units do not add (give the TSC runs -c MHZ)",
						unit, m->first, m->unit);
			}
		} else if (!strcmp(key, "histogram")) {
			if (!m->unit[0])
				return sj_error(j, "\"histogram\" before \"duration_unit\"");
			ret = sm_layout(j, m);
			layout = true;
		} else if (!strcmp(key, "exits_by_reason")) {
			if (!layout)
				return sj_error(j, "exits without a histogram layout (saved by an older kvmtrace_format?): they cannot be added");
			ret = SM_ARRAY(j, sm_reason(c, m, j));
		} else if (!strcmp(key, "longest_exits")) {
			if (!layout)
				return sj_error(j, "longest exits before the histogram layout");
			ret = SM_ARRAY(j, sm_long(m, m->nlongs - longs, j));
		} else if (!strcmp(key, "longest_per_reason")) {
			ret = sj_u64(j, &per_reason);
		} else if (!strcmp(key, "events")) {
			ret = SM_ARRAY(j, sm_event(c, j));
		} else if (!strcmp(key, "inputs")) {
			ret = SM_ARRAY(j, sm_input(m, name, j));
		} else if (!strcmp(key, "entries_unpaired")) {
			ret = sj_u64(j, &v);
			c->x.entries_unpaired += v;
		} else if (!strcmp(key, "exits_beyond_key_cap")) {
			ret = sj_u64(j, &v);
			c->x.exits_over += v;
		} else {
			ret = sj_skip(j);
		}
	}
	if (ret)
		return ret;
	if (more < 0)
		return -EINVAL;
	if (sj_peek(j))
		return sj_error(j, "more after the document's end");
	if (!layout)
		return sj_error(j, "no histogram layout: not statistics this kvmtrace_format can add");
	sm_long_file(m, per_reason);
	return 0;
}

/* The whole of path, NUL-terminated. 0 or -errno with d filled. */
static int sm_slurp(const char *path, char **text, size_t *len,
		    struct diag *d)
{
	struct stat st;
	size_t n = 0;
	ssize_t r;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_set(d, "%s: cannot read: %s", path,
			 fd < 0 || S_ISREG(st.st_mode) ? strerror(errno)
						      : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		diag_set(d, "out of memory");
		return -ENOMEM;
	}
	while (n < (size_t)st.st_size &&
	       (r = read(fd, buf + n, (size_t)st.st_size - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* ------------------------------------------------------------- output */

static void sm_input_row(const struct sink_stats *c, size_t i,
			 struct stats_cell *cells)
{
	const struct stats_minput *in = &c->merged->inputs[i];

	stats_str(&cells[0], in->file);
	stats_str(&cells[1], in->input);
	stats_str(&cells[2], in->kind);
	stats_str(&cells[3], in->domain);
	stats_u64(&cells[4], in->events);
}

int stats_merge_inputs_table(struct sink_stats *c)
{
	static const char *const head[] = { "file", "input", "kind", "domain",
					    "events" };
	struct stats_table t = {
		.name = "inputs",
		.ncols = 5,
		.head = head,
		.right = "llllr",
		.nrows = c->merged->ninputs,
		.row = sm_input_row,
	};
	int ret = 0;

	if (!c->csv)
		ret = stats_printf(c->sink.out, "\nInputs of the %zu saved statistics merged\n",
				   c->merged->nfiles);
	return ret ? ret : stats_table_out(c, &t);
}

void stats_merge_free(struct stats_merged *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->ninputs; i++) {
		free(m->inputs[i].file);
		free(m->inputs[i].input);
	}
	sm_long_free(m);
	free(m->inputs);
	free(m);
}

int stats_merge(struct outbuf *out, const char *mode, unsigned top,
		const char *sort, const char *const *paths, size_t n,
		struct diag *d)
{
	struct sink *s = sink_stats_create(out, NULL, mode, 0, NULL, top, sort);
	struct sink_stats *c;
	struct sj j;
	size_t i, len;
	char *text;
	int ret = 0;

	if (!s)
		return stats_nomem(d);
	c = container_of(s, struct sink_stats, sink);
	c->merged = calloc(1, sizeof(*c->merged));
	if (!c->merged) {
		sink_destroy(s);
		return stats_nomem(d);
	}
	c->counter_other = SINK_MAP_EMPTY;
	c->merged->whole = UINT64_MAX;
	c->merged->files = paths;
	stats_rows_init(&c->reasons, sizeof(struct stats_reason));
	for (i = 0; i < n && ret == 0; i++) {
		ret = sm_slurp(paths[i], &text, &len, d);
		if (ret < 0)
			break;
		sj_init(&j, paths[i], text, len, d);
		ret = sm_doc(c, c->merged, paths[i], &j);
		if (ret == -ENOMEM)
			stats_nomem(d);
		free(text);
		c->merged->nfiles++;
	}
	if (ret == 0) {
		sink_time_init(&c->time,
			       strcmp(c->merged->unit, "ticks") ? CLOCK_NS
								: CLOCK_TSC,
			       0);
		c->nsrcs = c->merged->ninputs;
		ret = stats_report(c);
		if (ret < 0)
			stats_nomem(d);
	}
	sink_destroy(s);
	return ret;
}
