// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PERF_RECORD_COMPRESSED (`perf record -z`): its payload is a zstd
 * stream of ordinary records, which perf reads before the next record of
 * the file. One decompression context for the whole file: perf compresses
 * each block as its own frame, but a frame may end in the next record.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "perf-int.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

/* What the records of one block may grow to, at most. */
#define PERF_ZBUF_MAX	(64u << 20)

int perf_zstd_inflate(struct perf *p, const unsigned char *b, size_t len,
		      uint64_t offset, struct diag *d)
{
	ZSTD_inBuffer in = { b, len, 0 };
	size_t keep = p->zlen - p->zpos;

	if (!p->zstd) {
		p->zstd = ZSTD_createDCtx();
		if (!p->zstd)
			goto nomem;
	}
	/* records of the last block not read yet stay in front */
	if (p->zpos) {
		memmove(p->zbuf, p->zbuf + p->zpos, keep);
		p->zlen = keep;
		p->zpos = 0;
	}
	p->zoff = offset;
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t r;

		if (p->zcap - p->zlen < 65536) {
			size_t cap = p->zcap ? 2 * p->zcap : 1u << 20;
			unsigned char *z;

			if (cap > PERF_ZBUF_MAX) {
				diag_set(d, "%s: offset 0x%" PRIx64 ": a compressed record inflates past %u MiB",
					 p->name, offset, PERF_ZBUF_MAX >> 20);
				return -EILSEQ;
			}
			z = realloc(p->zbuf, cap);
			if (!z)
				goto nomem;
			p->zbuf = z;
			p->zcap = cap;
		}
		out = (ZSTD_outBuffer){ p->zbuf + p->zlen, p->zcap - p->zlen, 0 };
		r = ZSTD_decompressStream(p->zstd, &out, &in);
		p->zlen += out.pos;
		if (ZSTD_isError(r)) {
			diag_set(d, "%s: offset 0x%" PRIx64 ": corrupt compressed record: %s",
				 p->name, offset, ZSTD_getErrorName(r));
			ZSTD_DCtx_reset(p->zstd, ZSTD_reset_session_only);
			return -EILSEQ;
		}
		if (!out.pos && !r)
			break;
	}
	return 0;
nomem:
	diag_set(d, "%s: out of memory", p->name);
	return -ENOMEM;
}

void perf_zstd_free(struct perf *p)
{
	ZSTD_freeDCtx(p->zstd);
	free(p->zbuf);
}
#else
int perf_zstd_inflate(struct perf *p, const unsigned char *b, size_t len,
		      uint64_t offset, struct diag *d)
{
	diag_set(d, "%s: offset 0x%" PRIx64 ": a zstd-compressed record (perf record -z), and this kvmtrace_format was built without libzstd",
		 p->name, offset);
	return -EILSEQ;
}

void perf_zstd_free(struct perf *p)
{
	free(p->zbuf);
}
#endif
