/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A ring-buffer page walked as libtraceevent 1.7.1's kbuffer walks it
 * (kbuffer-parse.c: __next_event(), update_pointers(), translate_data()),
 * for little-endian pages on a little-endian host: the same arithmetic,
 * the same types, the same reads, without a call into the library for each
 * record. The trace.dat reader's pages (tracecmd-pages.c) and --live's
 * (live-pages.c) are both walked here.
 */
#ifndef KTF_TRACECMD_KWALK_H
#define KTF_TRACECMD_KWALK_H

#include <stdint.h>
#include <string.h>

#define TC_KB_PADDING		29
#define TC_KB_TIME_EXTEND	30
#define TC_KB_TIME_STAMP	31
#define TC_KB_TS_SHIFT		27
#define TC_KB_TS_MSB		(0xf8ULL << 56)

/* kbuffer's state for a page: what its reader loads, this walks on */
struct tc_kwalk {
	const unsigned char *data;	/* the page's data, past its header */
	uint32_t size;			/* its commit's size */
	uint32_t curr, index, next;	/* kbuffer's curr, index, next */
	unsigned long long ts;		/* kbuffer's timestamp */
};

static inline uint32_t tc_kwalk_4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * __next_event(): on to the next record (time extends, stamps and
 * padding gone through): 0, or -1 at the page's end (curr at next, past
 * size), where index and ts are as they were
 */
static inline int tc_kwalk_next(struct tc_kwalk *w)
{
	unsigned long long delta, extend, msb;
	unsigned int type_len_ts, type_len;
	const unsigned char *ptr;
	int length;

	do {
		w->curr = w->next;
		if (w->next >= w->size)
			return -1;
		ptr = w->data + w->curr;
		type_len_ts = tc_kwalk_4(ptr);
		ptr += 4;
		type_len = type_len_ts & ((1 << 5) - 1);
		delta = type_len_ts >> 5;
		msb = 0;
		switch (type_len) {
		case TC_KB_PADDING:
			length = (int)tc_kwalk_4(ptr);
			break;
		case TC_KB_TIME_STAMP:
			msb = w->ts & TC_KB_TS_MSB;
			/* fall through */
		case TC_KB_TIME_EXTEND:
			extend = tc_kwalk_4(ptr);
			ptr += 4;
			extend <<= TC_KB_TS_SHIFT;
			extend += delta;
			delta = extend | msb;
			length = 0;
			break;
		case 0:
			length = (int)(tc_kwalk_4(ptr) - 4);
			length = (int)(((unsigned int)length + 3) & ~3u);
			ptr += 4;
			break;
		default:
			length = (int)(type_len * 4);
			break;
		}
		if (type_len == TC_KB_TIME_STAMP)
			w->ts = delta;
		else
			w->ts += delta;
		w->index = (uint32_t)(int)(ptr - w->data);
		w->next = w->index + (unsigned int)length;
	} while (type_len == TC_KB_TIME_EXTEND ||
		 type_len == TC_KB_TIME_STAMP || type_len == TC_KB_PADDING);
	return 0;
}

#endif
