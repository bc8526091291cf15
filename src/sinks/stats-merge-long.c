// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The longest exits of saved statistics merged (stats-merge.c): every
 * file's longest_exits rows, read as their text, the longest of each
 * reason (domain and name) of them all printed with the file of each;
 * and how many of each are whole when a file kept fewer of each reason
 * (longest_per_reason) than the merge shows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats-merge-int.h"

/* A string or number, as its text, into *out (NULL: null). */
static int sm_text(struct sj *j, char **out)
{
	char buf[SM_NAME];
	struct sj_num n;
	bool null;

	free(*out);
	*out = NULL;
	if (sj_peek(j) == '"') {
		if (sj_string_or_null(j, buf, sizeof(buf), &null) < 0)
			return -EINVAL;
		*out = strdup(buf);
	} else {
		if (sj_number(j, &n) < 0)
			return -EINVAL;
		if (n.null)
			return 0;
		*out = strndup(n.s, n.len);
	}
	return *out ? 0 : -ENOMEM;
}

int sm_long(struct stats_merged *m, size_t row, struct sj *j)
{
	static const char *const keys[SML_NCELLS] = {
		[SML_DOMAIN] = "domain", [SML_VM] = "vm", [SML_VCPU] = "vcpu",
		[SML_TID] = "host_tid", [SML_REASON] = "reason",
		[SML_ABOUT] = "about", [SML_FUNC] = "guest_function",
	};
	struct stats_mlong l = { .file = m->nfiles, .row = row };
	char key[64], want[32];
	bool first = true, has_dur = false, null;
	size_t i;
	int more, ret = -EINVAL;
	void *grown;

	if (sj_expect(j, '{') < 0)
		return -EINVAL;
	snprintf(want, sizeof(want), "duration_%s", m->unit);
	while ((more = sj_more(j, '}', &first)) == 1) {
		if (sj_string(j, key, sizeof(key)) < 0 || sj_expect(j, ':') < 0)
			goto out;
		for (i = 0; i < SML_NCELLS; i++)
			if (i == SML_START ? !strncmp(key, "start_", 6)
					   : !strcmp(key, keys[i]))
				break;
		if (i < SML_NCELLS) {
			ret = sm_text(j, &l.cell[i]);
			if (ret < 0)
				goto out;
			ret = -EINVAL;
		} else if (!strcmp(key, want)) {
			if (sm_dur(j, m, &null, &l.dur) < 0)
				goto out;
			has_dur = !null;
		} else if (sj_skip(j) < 0) {
			goto out;
		}
	}
	if (more < 0)
		goto out;
	if (!has_dur) {
		sj_error(j, "a longest_exits row without its %s", want);
		goto out;
	}
	if (m->nlongs == m->cap_longs) {
		size_t cap = m->cap_longs ? 2 * m->cap_longs : 16;

		grown = realloc(m->longs, cap * sizeof(*m->longs));
		if (!grown) {
			ret = -ENOMEM;
			goto out;
		}
		m->longs = grown;
		m->cap_longs = cap;
	}
	m->longs[m->nlongs++] = l;
	return 0;
out:
	for (i = 0; i < SML_NCELLS; i++)
		free(l.cell[i]);
	return ret;
}

void sm_long_file(struct stats_merged *m, uint64_t per_reason)
{
	if (per_reason < m->whole) {
		m->whole = per_reason;
		m->short_file = m->nfiles;
	}
}

void sm_long_free(struct stats_merged *m)
{
	size_t i, k;

	for (i = 0; i < m->nlongs; i++)
		for (k = 0; k < SML_NCELLS; k++)
			free(m->longs[i].cell[k]);
	free(m->longs);
}

/* by file and row: the order they were read in */
static int sm_long_place(const struct stats_mlong *a,
			 const struct stats_mlong *b)
{
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

/* longest first; then by file and row */
static int sm_long_cmp(const void *pa, const void *pb)
{
	const struct stats_mlong *a = pa, *b = pb;

	if (a->dur != b->dur)
		return a->dur < b->dur ? 1 : -1;
	return sm_long_place(a, b);
}

static int sm_str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* by domain and reason, then as sm_long_cmp() */
static int sm_long_reason_cmp(const void *pa, const void *pb)
{
	const struct stats_mlong *a = pa, *b = pb;
	int r = sm_str_cmp(a->cell[SML_DOMAIN], b->cell[SML_DOMAIN]);

	if (!r)
		r = sm_str_cmp(a->cell[SML_REASON], b->cell[SML_REASON]);
	return r ? r : sm_long_cmp(a, b);
}

/*
 * The first top rows of each reason kept (the rest freed), in the order
 * they print: longest first
 */
static void sm_long_keep(struct stats_merged *m, size_t top)
{
	/* the group's domain and reason: its first row's, which is kept */
	const char *domain = NULL, *reason = NULL;
	size_t i, k, n = 0, run = 0;

	qsort(m->longs, m->nlongs, sizeof(*m->longs), sm_long_reason_cmp);
	for (i = 0; i < m->nlongs; i++) {
		struct stats_mlong *l = &m->longs[i];

		if (i && !sm_str_cmp(l->cell[SML_DOMAIN], domain) &&
		    !sm_str_cmp(l->cell[SML_REASON], reason)) {
			run++;
		} else {
			run = 0;
			domain = l->cell[SML_DOMAIN];
			reason = l->cell[SML_REASON];
		}
		if (run < top) {
			m->longs[n++] = *l;
			continue;
		}
		for (k = 0; k < SML_NCELLS; k++)
			free(l->cell[k]);
	}
	m->nlongs = n;
	if (n)
		qsort(m->longs, n, sizeof(*m->longs), sm_long_cmp);
}

static void sm_long_row(const struct sink_stats *c, size_t i,
			struct stats_cell *cells)
{
	const struct stats_mlong *l = &c->merged->longs[i];
	const char *none = c->csv ? "" : "-";
	size_t k, col = 0;

	stats_str(&cells[col++], c->merged->files[l->file]);
	for (k = 0; k < SML_NCELLS; k++) {
		if (k == SML_ABOUT)
			stats_dur(c, &cells[col++], l->dur);
		stats_str(&cells[col++], l->cell[k] ? l->cell[k] : none);
	}
}

int stats_merge_longest_table(struct sink_stats *c)
{
	struct stats_merged *m = c->merged;
	/* --stats-top, else STATS_LONGEST (sink_stats_create()) */
	size_t top = c->cap_longest;
	const char *head[2 + STATS_LONGEST_COLS] = { "file", "start" };
	char dur[24];
	struct stats_table t = {
		.name = "longest_exits",
		.ncols = 2 + STATS_LONGEST_COLS,
		.head = head,
		.right = "lr" STATS_LONGEST_RIGHT,
		.row = sm_long_row,
	};
	int ret = 0;

	if (!m->nlongs && c->mode != STATS_JSON)
		return 0;
	/* c->time.ns: the files' unit is us (stats_merge()) */
	stats_longest_heads(c, head + 2, dur, sizeof(dur));
	if (m->nlongs)
		sm_long_keep(m, top);
	t.nrows = m->nlongs;
	if (c->mode == STATS_JSON) {
		/* the rows of each reason that are whole, for a merge again */
		ret = stats_json_member(c, "longest_per_reason");
		if (ret == 0)
			ret = stats_printf(c->sink.out, "%" PRIu64,
					   m->whole < top ? m->whole : top);
	} else if (c->csv) {
		ret = stats_put(c->sink.out, "\n", 1);
	} else {
		ret = stats_printf(c->sink.out,
				   "\nThe longest %s of each reason, of the %zu files (longest first; start: as its file's ts prints it)\n",
				   top == 1 ? "exit" : "exits", m->nfiles);
	}
	ret = ret ? ret : stats_table_out(c, &t);
	if (ret == 0 && !c->csv && m->whole < top && !m->whole)
		ret = stats_printf(c->sink.out, "(rows may be missing: %s has no longest exits; it was saved before --stats kept them)\n",
				   m->files[m->short_file]);
	else if (ret == 0 && !c->csv && m->whole < top)
		ret = stats_printf(c->sink.out, "(rows past the first %" PRIu64 " of a reason may be missing: %s keeps the longest %" PRIu64 " of each; save each with --stats-top=%zu)\n",
				   m->whole, m->files[m->short_file],
				   m->whole, top);
	return ret;
}
