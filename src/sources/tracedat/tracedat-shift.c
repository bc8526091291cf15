// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A guest's TIME_SHIFT option (trace-cmd.dat.v7(5), id 12): what trace-cmd
 * record -A writes into the guest's trace.dat so that libtracecmd puts the
 * guest's records on the host's clock when it opens the file.
 *
 *   u64 host trace id, u32 flags (bit 0: interpolate), u32 CPU count,
 *   per CPU: u32 n, u64 times[n], s64 offsets[n], u64 scalings[n];
 *   then, in newer files, per CPU: u64 fraction shifts[n].
 *
 * libtracecmd 3.1.6 (trace-input.c: tsync_cpu_offsets_load(),
 * timestamp_host_sync(), timestamp_correction_calc()) maps a guest time ts
 * on CPU c through the two samples around ts (the first two before the
 * first sample, the last two after the last; one sample: ts + offset):
 *
 *   tscor = interpolate ? lo.offset + ((ts - lo.time) * (hi.offset -
 *           lo.offset) + delta / 2) / delta : lo.offset,   delta = hi.time - lo.time
 *   host  = ((ts * lo.scaling) >> lo.fraction) + tscor
 *
 * in 64-bit arithmetic that wraps. tracedat_shift_apply() does the same;
 * tracedat_shift_invert() finds the guest's own time stamp back (`guest_ts`)
 * from the host time libtracecmd hands out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat-file.h"

static uint64_t ts_get(const unsigned char *p, size_t n, bool big)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static uint64_t ts_calc(uint64_t ts, bool interpolate,
			const struct tracedat_sample *lo,
			const struct tracedat_sample *hi);
static void ts_piece_range(const struct tracedat_sample *v, uint32_t n,
			   uint32_t k, uint64_t *lo, uint64_t *hi);

static int ts_cmp(const void *a, const void *b)
{
	const struct tracedat_sample *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

void tracedat_shift_free(struct tracedat_shift *s)
{
	uint32_t i;

	if (!s)
		return;
	for (i = 0; s->s && i < s->ncpus; i++)
		free(s->s[i]);
	for (i = 0; s->start && i < s->ncpus; i++)
		free(s->start[i]);
	free(s->start);
	free(s->s);
	free(s->n);
	free(s);
}

struct tracedat_shift *tracedat_shift_parse(const unsigned char *p, size_t n,
					    bool big)
{
	struct tracedat_shift *s;
	size_t pos = 16, need;
	uint32_t c, k, j;

	if (n < 16)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->peer = ts_get(p, 8, big);
	s->flags = (uint32_t)ts_get(p + 8, 4, big);
	s->ncpus = (uint32_t)ts_get(p + 12, 4, big);
	/* every CPU takes 4 bytes at least */
	if (s->ncpus > (n - pos) / 4)
		goto bad;
	s->n = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->n));
	s->s = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->s));
	if (!s->n || !s->s)
		goto bad;
	for (c = 0; c < s->ncpus; c++) {
		if (n - pos < 4)
			goto bad;
		s->n[c] = (uint32_t)ts_get(p + pos, 4, big);
		pos += 4;
		if (s->n[c] > (n - pos) / 24)
			goto bad;
		s->s[c] = calloc(s->n[c] ? s->n[c] : 1, sizeof(**s->s));
		if (!s->s[c])
			goto bad;
		for (k = 0; k < 3; k++)
			for (j = 0; j < s->n[c]; j++, pos += 8) {
				uint64_t v = ts_get(p + pos, 8, big);

				if (k == 0)
					s->s[c][j].time = v;
				else if (k == 1)
					s->s[c][j].offset = (int64_t)v;
				else
					s->s[c][j].scaling = v;
			}
	}
	if (pos < n) {
		s->fractions = true;
		for (c = 0; c < s->ncpus; c++) {
			need = (size_t)s->n[c] * 8;
			if (n - pos < need)
				goto bad;
			for (j = 0; j < s->n[c]; j++, pos += 8)
				s->s[c][j].fraction = ts_get(p + pos, 8, big);
		}
	}
	for (c = 0; c < s->ncpus; c++) {
		qsort(s->s[c], s->n[c], sizeof(**s->s), ts_cmp);
		for (j = k = 0; j < s->n[c]; j++)
			if (j == 0 || s->s[c][j].time != s->s[c][j - 1].time)
				s->s[c][k++] = s->s[c][j];
		s->n[c] = k;
	}
	/* where each piece starts on the host clock, for the inversion */
	s->start = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->start));
	if (!s->start)
		goto bad;
	for (c = 0; c < s->ncpus; c++) {
		uint64_t lo, hi;

		s->start[c] = calloc(s->n[c] ? s->n[c] : 1, sizeof(**s->start));
		if (!s->start[c])
			goto bad;
		for (j = 0; j + 1 < s->n[c]; j++) {
			ts_piece_range(s->s[c], s->n[c], j, &lo, &hi);
			s->start[c][j] = ts_calc(lo, s->flags & 1, &s->s[c][j],
						 &s->s[c][j + 1]);
		}
	}
	return s;
bad:
	tracedat_shift_free(s);
	return NULL;
}

static uint64_t ts_calc(uint64_t ts, bool interpolate,
			const struct tracedat_sample *lo,
			const struct tracedat_sample *hi)
{
	int64_t tscor = lo->offset;

	if (interpolate) {
		int64_t delta = (int64_t)(hi->time - lo->time);
		uint64_t off = (ts - lo->time) *
			       ((uint64_t)hi->offset - (uint64_t)lo->offset);
		int64_t num = (int64_t)(off + (uint64_t)(delta / 2));

		/* libtracecmd divides by zero or overflows here; we do not */
		if (delta && !(delta == -1 && num == INT64_MIN))
			tscor = (int64_t)((uint64_t)lo->offset +
					  (uint64_t)(num / delta));
	}
	ts = (ts * lo->scaling) >> (lo->fraction & 63);
	return ts + (uint64_t)tscor;
}

/* The index of the pair of samples libtracecmd takes for ts. */
static uint32_t ts_piece(const struct tracedat_sample *v, uint32_t n,
			 uint64_t ts)
{
	int lo = 0, hi = (int)n - 1, mid;

	if (n == 2 || ts <= v[0].time)
		return 0;
	if (ts >= v[n - 1].time)
		return n - 2;
	mid = (lo + hi) / 2;
	while (lo <= hi) {
		if (ts < v[mid].time)
			hi = mid - 1;
		else if (ts > v[mid].time)
			lo = mid + 1;
		else
			break;
		mid = (lo + hi) / 2;
	}
	return (uint32_t)mid;
}

uint64_t tracedat_shift_apply(const struct tracedat_shift *s, uint32_t cpu,
			      uint64_t ts)
{
	const struct tracedat_sample *v;
	uint32_t n, k;

	if (!s || cpu >= s->ncpus || !s->n[cpu])
		return ts;
	v = s->s[cpu];
	n = s->n[cpu];
	if (n == 1)
		return ts + (uint64_t)v[0].offset;
	k = ts_piece(v, n, ts);
	return ts_calc(ts, s->flags & 1, &v[k], &v[k + 1]);
}

/* The guest times that piece k of the mapping covers. */
static void ts_piece_range(const struct tracedat_sample *v, uint32_t n,
			   uint32_t k, uint64_t *lo, uint64_t *hi)
{
	*lo = k == 0 ? 0 : v[k].time;
	*hi = k + 2 >= n ? UINT64_MAX : v[k + 1].time - 1;
}

/* f(g) of piece k: the host time of guest time g. */
#define TS_F(g) ts_calc((g), interp, &v[k], &v[k + 1])

uint64_t tracedat_shift_invert(const struct tracedat_shift *s, uint32_t cpu,
			       uint64_t host)
{
	const struct tracedat_sample *v;
	double slope, guess;
	uint64_t lo, hi, a, b, w, g;
	uint32_t n, k, l, r;
	bool interp;
	int i;

	if (!s || cpu >= s->ncpus || !s->n[cpu])
		return host;
	v = s->s[cpu];
	n = s->n[cpu];
	if (n == 1)
		return host - (uint64_t)v[0].offset;
	interp = s->flags & 1;
	/* the last piece that starts at or below host (the mapping rises) */
	for (l = 0, r = n - 2; l < r;) {
		uint32_t m = l + (r - l + 1) / 2;

		if (s->start[cpu][m] <= host)
			l = m;
		else
			r = m - 1;
	}
	k = l;
	ts_piece_range(v, n, k, &lo, &hi);
	/* a first guess on the straight line through the piece */
	slope = (double)v[k].scaling /
		(double)((uint64_t)1 << (v[k].fraction & 63));
	if (interp && v[k + 1].time != v[k].time)
		slope += ((double)v[k + 1].offset - (double)v[k].offset) /
			 ((double)v[k + 1].time - (double)v[k].time);
	if (slope <= 0)
		slope = 1;
	/* from the sample's own time, in differences: exact enough in double */
	guess = ((double)(int64_t)(host - TS_F(v[k].time))) / slope;
	if (guess > 9e18 || guess < -9e18)
		guess = guess > 0 ? 9e18 : -9e18;
	g = v[k].time + (int64_t)guess;
	if (guess < 0 && v[k].time - lo < (uint64_t)-(int64_t)guess)
		g = lo;
	else if (guess > 0 && hi - v[k].time < (uint64_t)(int64_t)guess)
		g = hi;
	/* mostly the guess or a step beside it: the smallest g with f(g) == host */
	for (i = 0; i < 4; i++) {
		uint64_t h = TS_F(g);

		if (h == host && (g == lo || TS_F(g - 1) < host))
			return g;
		if (h < host && g < hi)
			g++;
		else if (h >= host && g > lo)
			g--;
		else
			break;
	}
	/* else a bracket around it with f(a) < host <= f(b), and bisection */
	w = 4096 + (uint64_t)(4 / slope);
	a = b = g;
	for (i = 0; i < 48; i++, w *= 2) {
		a = a - lo > w ? a - w : lo;
		b = hi - b > w ? b + w : hi;
		if ((a == lo || TS_F(a) < host) && (b == hi || TS_F(b) >= host))
			break;
	}
	if (TS_F(a) >= host)
		return a;
	while (b - a > 1) {
		uint64_t m = a + (b - a) / 2;

		if (TS_F(m) < host)
			a = m;
		else
			b = m;
	}
	return TS_F(b) == host ? b : a;
}
