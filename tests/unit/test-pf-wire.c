// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the protobuf wire writers (src/sinks/pf-wire.h): the
 * branch-free varint (pf_varint_n() of pf_varint_len() bytes) writes the
 * bytes of the plain loop (pf_varint()) for every length, at the edges of
 * each 7-bit group and for random numbers of every size, and both decode
 * (by the protobuf rule, written out here) to the number written; the
 * word stores put their bytes in wire order.
 */
#include <stdint.h>
#include <string.h>

#include "pf-wire.h"
#include "tap.h"

/* The number a varint at p holds and its length (0: longer than 10). */
static uint64_t decode(const uint8_t *p, unsigned *len)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < 10; i++) {
		v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*len = i + 1;
			return v;
		}
	}
	*len = 0;
	return v;
}

/* v through both writers: the same bytes, decoded to v; false if not. */
static bool same(uint64_t v)
{
	uint8_t a[32], b[32];
	unsigned n = pf_varint_len(v), la, lb;
	size_t na, nb;

	memset(a, 0xaa, sizeof(a));
	memset(b, 0x55, sizeof(b));
	na = (size_t)(pf_varint(a, v) - a);
	nb = (size_t)(pf_varint_n(b, v, n) - b);
	if (na != n || nb != n || memcmp(a, b, n) != 0)
		return false;
	return decode(a, &la) == v && la == n && decode(b, &lb) == v &&
	       lb == n;
}

static void test_edges(struct tap *t)
{
	unsigned k, bad = 0;
	uint64_t v;

	bad += !same(0);
	bad += !same(UINT64_MAX);
	for (k = 1; k < 64; k++) {
		v = 1ull << k;
		bad += !same(v - 1) + !same(v) + !same(v + 1);
		bad += !same(~v) + !same(v | v >> 1);
	}
	tap_ok(t, bad == 0, "edges of every bit: loop and table varints agree "
	       "(%u differ)", bad);
	tap_ok(t, pf_varint_len(0) == 1 && pf_varint_len(127) == 1 &&
			  pf_varint_len(128) == 2 &&
			  pf_varint_len(1ull << 63) == 10 &&
			  pf_varint_len((1ull << 63) - 1) == 9 &&
			  pf_varint_len(1ull << 56) == 9 &&
			  pf_varint_len((1ull << 56) - 1) == 8,
	       "pf_varint_len() at the length steps");
}

static void test_random(struct tap *t)
{
	uint64_t x = 88172645463325252ull, v;
	unsigned i, bad = 0, bits;

	for (i = 0; i < 2000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* every size, from 0 to 64 bits */
		bits = i % 65;
		v = bits ? x >> (64 - bits) : 0;
		bad += !same(v);
	}
	tap_ok(t, bad == 0, "2 M random numbers of 0 to 64 bits: the same "
	       "bytes (%u differ)", bad);
}

static void test_words(struct tap *t)
{
	static const uint8_t w64[8] = { 0x50, 0x01, 0x68, 0x02,
					0x5a, 0x00, 0x48, 0x03 };
	static const uint8_t w32[4] = { 0x18, 0x02, 0x50, 0x07 };
	uint8_t b[8];

	pf_le64(b, 0x0348005a02680150ull);
	tap_ok(t, memcmp(b, w64, 8) == 0, "pf_le64(): bytes in wire order");
	pf_le32(b, 0x07500218u);
	tap_ok(t, memcmp(b, w32, 4) == 0, "pf_le32(): bytes in wire order");
	tap_ok(t, pf_get_le64(w64) == 0x0348005a02680150ull,
	       "pf_get_le64() reads them back");
}

int main(void)
{
	struct tap t = { 0 };

	tap_plan(6);
	test_edges(&t);
	test_random(&t);
	test_words(&t);
	return t.failed ? 1 : 0;
}
