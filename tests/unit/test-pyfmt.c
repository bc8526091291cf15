// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * src/pyfmt.c against Python's '%' operator: every row of pyfmt-table.h
 * (tests/gen/gen-pyfmt-table.py), one TAP line per conversion and value
 * kind, then hand-written cases. Every call writes into a buffer of exactly
 * pyfmt_bound() bytes, so AddressSanitizer catches a bound that is short.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pyfmt.h"
#include "pyfmt-table.h"
#include "render-int.h"
#include "pyfmt-fixed-table.h"
#include "tap.h"

#define TEST_CONVS "diuoxXeEfFgGsrac"
#define TEST_KINDS "ifs"
#define TEST_MAX_DIAG 3
/*
 * 16 conversions x 3 value kinds, the hand-written cases, pyfmt_u64_dec,
 * pyfmt_fixed, pyfmt_dec8_swar and pyfmt_dec8x2, render_dec_u64
 */
#define TEST_PLAN (16 * 3 + 29 + 1 + 1 + 1 + 1)

struct test_result {
	ssize_t ret;	/* bytes, or a negative errno */
	char *out;	/* owned: pyfmt_bound() bytes */
	size_t bound;
};

/* Print n bytes as a C string literal, for diagnostics */
static void test_put_bytes(const char *s, size_t n)
{
	size_t i;

	putchar('"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	putchar('"');
}

static void test_put_spec(const struct pyfmt_spec *sp)
{
	printf("'%%(v)%s%s%s%s%s", sp->flags & PYFMT_ALT ? "#" : "",
	       sp->flags & PYFMT_ZERO ? "0" : "",
	       sp->flags & PYFMT_LEFT ? "-" : "",
	       sp->flags & PYFMT_SPACE ? " " : "",
	       sp->flags & PYFMT_PLUS ? "+" : "");
	if (sp->width >= 0)
		printf("%d", sp->width);
	if (sp->prec >= 0)
		printf(".%d", sp->prec);
	printf("%c'", sp->conv);
}

static void test_put_result(const struct test_result *r)
{
	if (r->ret < 0)
		printf("error %s", strerror((int)-r->ret));
	else
		test_put_bytes(r->out, (size_t)r->ret);
}

static void test_result_free(struct test_result *r)
{
	free(r->out);
	r->out = NULL;
}

static int test_run_int(struct test_result *r, const struct pyfmt_spec *sp,
			bool neg, uint64_t mag)
{
	r->bound = pyfmt_bound(sp, 0);
	r->out = malloc(r->bound);
	r->ret = -ENOMEM;
	if (!r->out)
		return -ENOMEM;
	r->ret = pyfmt_int(r->out, sp, neg, mag);
	return 0;
}

static int test_run_float(struct test_result *r, const struct pyfmt_spec *sp,
			  double v)
{
	r->bound = pyfmt_bound(sp, 0);
	r->out = malloc(r->bound);
	r->ret = -ENOMEM;
	if (!r->out)
		return -ENOMEM;
	r->ret = pyfmt_float(r->out, sp, v);
	return 0;
}

static int test_run_str(struct test_result *r, const struct pyfmt_spec *sp,
			const char *s, size_t len)
{
	r->bound = pyfmt_bound(sp, len);
	r->out = malloc(r->bound);
	r->ret = -ENOMEM;
	if (!r->out)
		return -ENOMEM;
	r->ret = pyfmt_str(r->out, sp, s, len);
	return 0;
}

static int test_errno(int err)
{
	switch (err) {
	case PYFMT_T_EINVAL:
		return -EINVAL;
	case PYFMT_T_ERANGE:
		return -ERANGE;
	case PYFMT_T_EDOM:
		return -EDOM;
	}
	return 0;
}

/* Does r hold what want/want_n (or the error want_err) says? */
static bool test_same(const struct test_result *r, int want_err,
		      const char *want, size_t want_n)
{
	if (r->ret >= 0 && (size_t)r->ret > r->bound)
		return false;
	if (want_err)
		return r->ret == want_err;
	return r->ret == (ssize_t)want_n && !memcmp(r->out, want, want_n);
}

static void test_put_row_value(const struct pyfmt_t_row *row)
{
	if (row->kind == 'i')
		printf("%s%llu", row->neg && row->mag ? "-" : "",
		       (unsigned long long)row->mag);
	else if (row->kind == 'f')
		printf("%a (%.17g)", row->f, row->f);
	else
		test_put_bytes(row->s, row->slen);
}

/* One TAP line: every table row of conversion conv and value kind kind */
static void test_table_group(struct tap *t, char conv, char kind)
{
	size_t nrows = sizeof(pyfmt_t_rows) / sizeof(pyfmt_t_rows[0]);
	unsigned rows = 0, bad = 0;
	size_t i;

	for (i = 0; i < nrows; i++) {
		const struct pyfmt_t_row *row = &pyfmt_t_rows[i];
		struct pyfmt_spec sp = {
			.flags = row->flags,
			.width = row->width,
			.prec = row->prec,
			.conv = row->conv,
		};
		struct test_result r = { 0 };
		int err;

		if (row->conv != conv || row->kind != kind)
			continue;
		rows++;
		if (kind == 'i')
			err = test_run_int(&r, &sp, row->neg, row->mag);
		else if (kind == 'f')
			err = test_run_float(&r, &sp, row->f);
		else
			err = test_run_str(&r, &sp, row->s, row->slen);
		if (err < 0) {
			tap_diag("out of memory");
			bad++;
			continue;
		}
		if (!test_same(&r, test_errno(row->err), row->out,
			       row->outlen)) {
			if (bad++ < TEST_MAX_DIAG) {
				printf("# ");
				test_put_spec(&sp);
				printf(" %% ");
				test_put_row_value(row);
				printf("\n#   want ");
				if (row->err)
					printf("error %s",
					       strerror(-test_errno(row->err)));
				else
					test_put_bytes(row->out, row->outlen);
				printf("\n#   got  ");
				test_put_result(&r);
				printf(" (bound %zu)\n", r.bound);
			}
		}
		test_result_free(&r);
	}
	tap_ok(t, rows > 0 && !bad, "table: %%%c of %s (%u rows, %u wrong)",
	       conv, kind == 'i' ? "int" : kind == 'f' ? "float" : "str", rows,
	       bad);
}

/* Hand-written cases: desc is the Python expression */
static void test_check(struct tap *t, const char *desc,
		       struct test_result *r, int want_err, const char *want)
{
	size_t want_n = want ? strlen(want) : 0;
	bool ok = test_same(r, want_err, want, want_n);

	if (!ok) {
		printf("# want ");
		if (want_err)
			printf("error %s", strerror(-want_err));
		else
			test_put_bytes(want, want_n);
		printf("\n# got  ");
		test_put_result(r);
		printf("\n");
	}
	tap_ok(t, ok, "%s", desc);
	test_result_free(r);
}

/* Did r write want_n bytes, within its bound? */
static bool test_fits(const struct test_result *r, size_t want_n)
{
	return r->ret == (ssize_t)want_n && want_n <= r->bound;
}

static struct pyfmt_spec test_spec(unsigned flags, int width, int prec,
				   char conv)
{
	struct pyfmt_spec sp = {
		.flags = flags,
		.width = width,
		.prec = prec,
		.conv = conv,
	};

	return sp;
}

static void test_hand(struct tap *t)
{
	struct test_result r = { 0 };
	struct pyfmt_spec sp;
	char big[700];

	sp = test_spec(PYFMT_ZERO, 5, 3, 'd');
	test_run_int(&r, &sp, false, 7);
	test_check(t, "'%05.3d' % 7 == '00007'", &r, 0, "00007");

	sp = test_spec(PYFMT_ALT | PYFMT_ZERO, 8, -1, 'x');
	test_run_int(&r, &sp, true, 7);
	test_check(t, "'%#08x' % -7 == '-0x00007'", &r, 0, "-0x00007");

	sp = test_spec(PYFMT_ZERO | PYFMT_LEFT, 5, -1, 'd');
	test_run_int(&r, &sp, false, 7);
	test_check(t, "'%0-5d' % 7 == '7    '", &r, 0, "7    ");

	sp = test_spec(PYFMT_ALT, -1, -1, 'o');
	test_run_int(&r, &sp, false, 8);
	test_check(t, "'%#o' % 8 == '0o10'", &r, 0, "0o10");

	sp = test_spec(PYFMT_ALT, -1, -1, 'X');
	test_run_int(&r, &sp, false, 255);
	test_check(t, "'%#X' % 255 == '0XFF'", &r, 0, "0XFF");

	sp = test_spec(PYFMT_PLUS | PYFMT_SPACE, -1, -1, 'd');
	test_run_int(&r, &sp, false, 5);
	test_check(t, "'%+ d' % 5 == '+5'", &r, 0, "+5");

	sp = test_spec(PYFMT_PLUS, -1, -1, 'd');
	test_run_int(&r, &sp, true, 0);
	test_check(t, "neg with mag 0 is 0: '%+d' % 0 == '+0'", &r, 0, "+0");

	sp = test_spec(0, -1, 0, 'd');
	test_run_int(&r, &sp, false, 0);
	test_check(t, "'%.0d' % 0 == '0'", &r, 0, "0");

	sp = test_spec(PYFMT_ZERO, 5, -1, 's');
	test_run_str(&r, &sp, "ab", 2);
	test_check(t, "'%05s' % 'ab' == '   ab'", &r, 0, "   ab");

	sp = test_spec(PYFMT_ZERO, 5, 1, 'c');
	test_run_int(&r, &sp, false, 65);
	test_check(t, "'%05.1c' % 65 == '    A'", &r, 0, "    A");

	sp = test_spec(0, 3, -1, 's');
	test_run_str(&r, &sp, "\xc3\xa9", 2);
	test_check(t, "'%3s' % 'é' pads by characters", &r, 0, "  \xc3\xa9");

	sp = test_spec(0, -1, -1, 'c');
	test_run_int(&r, &sp, false, 0xd800);
	test_check(t, "'%c' % 0xd800 is -ERANGE", &r, -ERANGE, NULL);

	sp = test_spec(0, -1, -1, 'c');
	test_run_str(&r, &sp, "ab", 2);
	test_check(t, "'%c' % 'ab' is -EINVAL", &r, -EINVAL, NULL);

	sp = test_spec(0, -1, -1, 'x');
	test_run_float(&r, &sp, 3.0);
	test_check(t, "'%x' % 3.0 is -EINVAL", &r, -EINVAL, NULL);

	sp = test_spec(0, -1, -1, 'd');
	test_run_float(&r, &sp, NAN);
	test_check(t, "'%d' % nan is -EDOM", &r, -EDOM, NULL);

	sp = test_spec(PYFMT_ZERO, 10, -1, 'f');
	test_run_float(&r, &sp, -INFINITY);
	test_check(t, "'%010f' % -inf == '-000000inf'", &r, 0, "-000000inf");

	sp = test_spec(PYFMT_PLUS, -1, -1, 'F');
	test_run_float(&r, &sp, -NAN);
	test_check(t, "'%+F' % -nan == '+NAN'", &r, 0, "+NAN");

	sp = test_spec(PYFMT_ALT, -1, -1, 'g');
	test_run_float(&r, &sp, 1.0);
	test_check(t, "'%#g' % 1.0 == '1.00000'", &r, 0, "1.00000");

	sp = test_spec(PYFMT_ALT, -1, 2, 'g');
	test_run_float(&r, &sp, 99.666);
	test_check(t, "'%#.2g' % 99.666 == '1.0e+02' (glibc: '1.e+02')", &r, 0,
		   "1.0e+02");

	sp = test_spec(0, -1, -1, 'r');
	test_run_float(&r, &sp, 1e16);
	test_check(t, "repr(1e16) == '1e+16'", &r, 0, "1e+16");
	test_run_float(&r, &sp, 1e-5);
	test_check(t, "repr(1e-05) == '1e-05'", &r, 0, "1e-05");
	test_run_float(&r, &sp, 100.0);
	test_check(t, "repr(100.0) == '100.0'", &r, 0, "100.0");
	test_run_float(&r, &sp, -0.0);
	test_check(t, "repr(-0.0) == '-0.0'", &r, 0, "-0.0");
	test_run_float(&r, &sp, 0.1);
	test_check(t, "repr(0.1) == '0.1'", &r, 0, "0.1");

	sp = test_spec(0, -1, -1, 'f');
	test_run_int(&r, &sp, false, UINT64_MAX);
	test_check(t, "'%f' % (2**64 - 1) rounds like float()", &r, 0,
		   "18446744073709551616.000000");

	sp = test_spec(0, -1, -1, 'r');
	test_run_str(&r, &sp, "\377a'\n", 4);
	test_check(t, "repr() of a stray byte is surrogateescape", &r, 0,
		   "\"\\udcffa'\\n\"");

	/*
	 * The largest outputs, in buffers of exactly pyfmt_bound() bytes:
	 * AddressSanitizer tells if they write past it.
	 */
	sp = test_spec(PYFMT_PLUS, PYFMT_MAX_WIDTH, PYFMT_MAX_PREC, 'f');
	test_run_float(&r, &sp, -1.7976931348623157e308);
	tap_ok(t, test_fits(&r, 309 + 1 + 1 + PYFMT_MAX_PREC),
	       "'%%+4096.4096f' %% -DBL_MAX fits its bound");
	test_result_free(&r);

	sp = test_spec(PYFMT_ZERO, PYFMT_MAX_WIDTH, PYFMT_MAX_PREC, 'd');
	test_run_float(&r, &sp, -1.7976931348623157e308);
	tap_ok(t, test_fits(&r, 1 + PYFMT_MAX_PREC),
	       "'%%04096.4096d' %% -DBL_MAX fits its bound");
	test_result_free(&r);

	memset(big, 0xff, sizeof(big));
	sp = test_spec(0, PYFMT_MAX_WIDTH, -1, 'r');
	test_run_str(&r, &sp, big, sizeof(big));
	tap_ok(t, test_fits(&r, 6 * sizeof(big) + 2),
	       "'%%4096r' of 700 stray bytes fits its bound");
	test_result_free(&r);
}

/* Every power of ten, every run of nines, and pseudo-random values */
static void test_u64_dec(struct tap *t)
{
	uint64_t v = 1, x = 0x9e3779b97f4a7c15ull;
	char want[24], got[24];
	unsigned bad = 0, i;
	size_t n;

	for (i = 0; i < 200000; i++) {
		if (i < 20) {
			v = i ? v * 10 : 1;
		} else if (i < 40) {
			v = i == 20 ? 9 : v * 10 + 9;
		} else {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			v = x >> (i % 64);
		}
		n = pyfmt_u64_dec(got, v);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
		if ((n != strlen(want) || memcmp(got, want, n)) &&
		    bad++ < TEST_MAX_DIAG)
			tap_diag("pyfmt_u64_dec(%s) gave %.*s", want, (int)n,
				 got);
	}
	tap_ok(t, !bad, "pyfmt_u64_dec agrees with printf (%u wrong)", bad);
}

/*
 * The renderer's 8-digit writers (pyfmt_dec8_swar, and pyfmt_dec8x2 of
 * two numbers at once) against printf's %08u: every value up to 10^5,
 * every power of ten and run of nines, each next to the one below and
 * above it, pseudo-random values; the two of dec8x2 apart. (All 10^8
 * values agreed when it was written: about 10 s, too long for make check.)
 */
static void test_dec8(struct tap *t)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	uint32_t a, b, p = 1;
	char want[24], got[24];
	unsigned bad = 0, i;

	for (i = 0; i < 400000; i++) {
		if (i < 100000) {
			a = i;
		} else if (i < 100048) {
			/* 10^k - 1, 10^k, 10^k + 1 for k = 1 .. 7, then 99999999 */
			unsigned k = (i - 100000) / 3 % 8;

			p = 1;
			while (k--)
				p *= 10;
			a = p * 10 - 2 + (i - 100000) % 3;
			if (a > 99999999)
				a = 99999999;
		} else {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			a = (uint32_t)(x >> 33) % 100000000u;
		}
		b = (uint32_t)((x >> 7) % 100000000u) ^ (i & 1 ? 0 : 99999999u - a);
		b %= 100000000u;
		snprintf(want, sizeof(want), "%08u%08u", (unsigned)a,
			 (unsigned)b);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		{
			uint64_t d = pyfmt_dec8_swar(a) + 0x3030303030303030ull;

			memcpy(got, &d, 8);
			if (memcmp(got, want, 8) && bad++ < TEST_MAX_DIAG)
				tap_diag("pyfmt_dec8_swar(%u) gave %.8s",
					 (unsigned)a, got);
		}
#endif
#ifdef __SSE2__
		_mm_storeu_si128((__m128i *)(void *)got,
				 _mm_add_epi8(pyfmt_dec8x2(a, b),
					      _mm_set1_epi8('0')));
		if (memcmp(got, want, 16) && bad++ < TEST_MAX_DIAG)
			tap_diag("pyfmt_dec8x2(%u, %u) gave %.16s",
				 (unsigned)a, (unsigned)b, got);
#endif
	}
	tap_ok(t, !bad, "pyfmt_dec8_swar and pyfmt_dec8x2 agree with printf (%u wrong)",
	       bad);
}

/*
 * The renderer's %d of a record's u64 (render_dec_u64: two bytes from the
 * pairs' table below 100, the byte past a digit written over) against
 * printf: 0 .. 100000, each power of ten and the numbers beside it,
 * UINT64_MAX, pseudo-random values of every length; what follows the
 * number in the output is written after it, as the renderer does.
 */
static void test_render_dec(struct tap *t)
{
	uint64_t x = 0x2545f4914f6cdd1dull, v, p;
	char want[32], got[48];
	unsigned bad = 0, i;
	char *end;

	for (i = 0; i < 300000; i++) {
		if (i < 100001) {
			v = i;
		} else if (i < 100001 + 60) {
			unsigned k = (i - 100001) / 3;

			for (p = 1; k--;)
				p *= 10;
			v = p - 1 + (i - 100001) % 3;
		} else if (i == 100001 + 60) {
			v = UINT64_MAX;
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = x >> (x & 63);
		}
		snprintf(want, sizeof(want), "%llu|", (unsigned long long)v);
		memset(got, '#', sizeof(got));
		end = render_dec_u64(got, v);
		*end++ = '|';
		if ((size_t)(end - got) != strlen(want) ||
		    memcmp(got, want, strlen(want))) {
			if (bad++ < TEST_MAX_DIAG)
				tap_diag("render_dec_u64(%s) gave %.*s", want,
					 (int)(end - got), got);
		}
	}
	tap_ok(t, !bad, "render_dec_u64 agrees with printf (%u wrong)", bad);
}

/* The renderer's inline %f against pyfmt-fixed-table.h (Python's %.Nf) */
static void test_fixed(struct tap *t)
{
	unsigned bad = 0;
	size_t i, n;

	for (i = 0; i < sizeof(pyfmt_fixed_rows) / sizeof(*pyfmt_fixed_rows);
	     i++) {
		const char *want = pyfmt_fixed_rows[i].out;
		char got[64];
		ssize_t r;

		r = pyfmt_fixed(got, pyfmt_fixed_rows[i].v,
				pyfmt_fixed_rows[i].prec);
		n = r < 0 ? 0 : (size_t)r;
		if (want ? r < 0 || n != strlen(want) || memcmp(got, want, n)
			 : r >= 0) {
			if (bad++ < TEST_MAX_DIAG)
				tap_diag("'%%.%uf' %% %a: want %s, got %.*s",
					 pyfmt_fixed_rows[i].prec,
					 pyfmt_fixed_rows[i].v,
					 want ? want : "(declined)", (int)n, got);
		}
	}
	tap_ok(t, !bad, "pyfmt_fixed agrees with Python's %%.Nf (%u wrong)", bad);
}

int main(void)
{
	struct tap t = { 0 };
	const char *c, *k;

	tap_plan(TEST_PLAN);
	for (c = TEST_CONVS; *c; c++)
		for (k = TEST_KINDS; *k; k++)
			test_table_group(&t, *c, *k);
	test_hand(&t);
	test_u64_dec(&t);
	test_fixed(&t);
	test_render_dec(&t);
	test_dec8(&t);
	if (t.n != TEST_PLAN)
		tap_diag("planned %d tests, ran %d", TEST_PLAN, t.n);
	return 0;
}
