// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gen-kvmtrace: write a random kvmtrace stream to standard output.
 *
 *   gen-kvmtrace [-n RECORDS] [-s SEED] [-b] [-m] [-r] [-t PERCENT] [-u PERCENT] [-x]
 *
 * -b big-endian (implies the magic word), -m the magic word, -t the share
 * of records with a TSC (default 100), -u the share of unknown event ids
 * (default 5), -r realistic VMEXIT exit reasons (VMX basic reasons 0..69)
 * instead of random words; -x only VMEXIT and VMENTRY, each exit followed
 * by the entry of its vCPU (the --exits benchmark). The events are those of formats/kvmtrace, VMEXIT/VMENTRY
 * pairs most often, with the data words the kernel wrote for each.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct gen_event {
	uint32_t id;
	unsigned ndata;
	unsigned weight;
};

static const struct gen_event gen_events[] = {
	{ 0x00010001, 0, 30 },	/* VMENTRY */
	{ 0x00010002, 3, 30 },	/* VMEXIT */
	{ 0x00020001, 3, 4 },	/* PAGE_FAULT */
	{ 0x00020002, 1, 2 },	/* INJ_VIRQ */
	{ 0x00020003, 1, 1 },
	{ 0x00020004, 1, 1 },
	{ 0x00020005, 2, 4 },	/* IO_READ */
	{ 0x00020006, 2, 4 },	/* IO_WRITE */
	{ 0x00020007, 3, 2 },
	{ 0x00020008, 3, 2 },
	{ 0x00020009, 2, 1 },
	{ 0x0002000A, 2, 1 },
	{ 0x0002000B, 3, 2 },	/* MSR_READ */
	{ 0x0002000C, 3, 2 },
	{ 0x0002000D, 5, 2 },	/* CPUID */
	{ 0x0002000E, 1, 2 },
	{ 0x0002000F, 0, 1 },
	{ 0x00020010, 1, 1 },
	{ 0x00020011, 0, 3 },	/* HLT */
	{ 0x00020012, 0, 1 },
	{ 0x00020013, 1, 1 },
	{ 0x00020014, 1, 2 },
	{ 0x00020015, 3, 1 },
};

#define GEN_NEVENTS (sizeof(gen_events) / sizeof(gen_events[0]))

/* xorshift64*: the same stream for the same seed everywhere */
static uint64_t gen_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

static void gen_put32(FILE *f, uint32_t v, int be)
{
	unsigned char b[4];
	int i;

	for (i = 0; i < 4; i++)
		b[i] = (unsigned char)(be ? v >> (24 - 8 * i) : v >> (8 * i));
	fwrite(b, 1, 4, f);
}

static void gen_put64(FILE *f, uint64_t v, int be)
{
	if (be) {
		gen_put32(f, (uint32_t)(v >> 32), be);
		gen_put32(f, (uint32_t)v, be);
	} else {
		gen_put32(f, (uint32_t)v, be);
		gen_put32(f, (uint32_t)(v >> 32), be);
	}
}

/* standard output's buffer (main()) */
static char gen_obuf[1 << 20];

int main(int argc, char **argv)
{
	unsigned long long n = 1000, i;
	unsigned tsc_pct = 100, unknown_pct = 5, total = 0, k;
	uint64_t seed = 1, tsc = 1000000000ull;
	int be = 0, magic = 0, real = 0, exits = 0, c;
	uint32_t pid = 1000, vcpu = 0;

	while ((c = getopt(argc, argv, "n:s:bmrt:u:x")) != -1) {
		switch (c) {
		case 'n':
			n = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0) * 2654435761u + 1;
			break;
		case 'b':
			be = magic = 1;
			break;
		case 'm':
			magic = 1;
			break;
		case 'r':
			real = 1;
			break;
		case 't':
			tsc_pct = (unsigned)atoi(optarg);
			break;
		case 'u':
			unknown_pct = (unsigned)atoi(optarg);
			break;
		case 'x':
			exits = 1;
			break;
		default:
			fputs("usage: gen-kvmtrace [-n N] [-s SEED] [-b] [-m] [-r] [-t PCT] [-u PCT] [-x]\n",
			      stderr);
			return 2;
		}
	}
	/*
	 * Written in 1 MiB blocks, as a recorder writes its buffers: a file
	 * written 4 KiB at a time (stdio's default here) sits in the page
	 * cache as 4 KiB folios, and reading it back costs the kernel twice
	 * what the same file costs after read-ahead or big writes filled the
	 * cache (a 54 MB stream: 12.7 ms of read() against 6.3 ms), a cost
	 * of how the benchmark made its input, not of any reader
	 */
	setvbuf(stdout, gen_obuf, _IOFBF, sizeof(gen_obuf));
	for (k = 0; k < GEN_NEVENTS; k++)
		total += gen_events[k].weight;
	if (magic)
		gen_put32(stdout, 0x12345678, be);
	for (i = 0; i < n; i++) {
		uint64_t r = gen_rand(&seed);
		uint32_t id, hdr;
		unsigned nd, w, j;
		int has_tsc = r % 100 < tsc_pct;

		if (exits) {
			id = i % 2 ? 0x00010001 : 0x00010002;
			nd = i % 2 ? 0 : 3;
			has_tsc = 1;
		} else if ((r >> 8) % 100 < unknown_pct) {
			id = (uint32_t)(r >> 20) & 0x0fffffff;
			nd = (unsigned)(r >> 52) % 8;
		} else {
			w = (unsigned)((r >> 16) % total);
			for (k = 0; w >= gen_events[k].weight; k++)
				w -= gen_events[k].weight;
			id = gen_events[k].id;
			nd = gen_events[k].ndata;
		}
		tsc += 100 + (r >> 40) % 5000;
		hdr = id | (uint32_t)nd << 28 | (has_tsc ? 1u << 31 : 0);
		gen_put32(stdout, hdr, be);
		if (!exits || i % 2 == 0) {
			pid = 1000 + (uint32_t)(r >> 33) % 4;
			vcpu = (uint32_t)(r >> 29) % 4;
		}
		gen_put32(stdout, pid, be);
		gen_put32(stdout, vcpu, be);
		if (has_tsc)
			gen_put64(stdout, tsc, be);
		for (j = 0; j < nd; j++) {
			uint32_t word = (uint32_t)gen_rand(&seed);

			if (real && j == 0 && id == 0x00010002)
				word %= 70;
			gen_put32(stdout, word, be);
		}
	}
	return fflush(stdout) ? 1 : 0;
}
