/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The protobuf wire format, as Perfetto's trace files use it: varints,
 * tags, length-delimited fields. A nested message is opened with a one
 * byte length and closed with its real length, moved over when it is 128
 * bytes or longer (rare: our messages are short).
 *
 * The field numbers used here are those of Perfetto's protos/perfetto/
 * trace/ (trace_packet, track_event, track_descriptor, debug_annotation,
 * interned_data, process/thread/counter descriptors).
 */
#ifndef KTF_PF_WIRE_H
#define KTF_PF_WIRE_H

#include <stdint.h>
#include <string.h>

enum pf_wire {
	PF_VARINT = 0,
	PF_I64 = 1,
	PF_LEN = 2,
};

/* Trace */
#define PF_TRACE_PACKET			1
/* TracePacket */
#define PF_PKT_TIMESTAMP		8
#define PF_PKT_SEQ_ID			10	/* trusted_packet_sequence_id */
#define PF_PKT_TRACK_EVENT		11
#define PF_PKT_INTERNED			12
#define PF_PKT_SEQ_FLAGS		13
#define PF_PKT_TRACK_DESC		60
#define PF_SEQ_CLEARED			1	/* SEQ_INCREMENTAL_STATE_CLEARED */
#define PF_SEQ_NEEDS			2	/* SEQ_NEEDS_INCREMENTAL_STATE */
/* TrackEvent */
#define PF_TE_CATEGORY_IIDS		3
#define PF_TE_ANNOTATIONS		4
#define PF_TE_TYPE			9
#define PF_TE_NAME_IID			10
#define PF_TE_TRACK_UUID		11
#define PF_TE_CATEGORIES		22
#define PF_TE_NAME			23
#define PF_TE_DOUBLE_COUNTER		44
#define PF_TYPE_BEGIN			1
#define PF_TYPE_END			2
#define PF_TYPE_INSTANT			3
#define PF_TYPE_COUNTER			4
/* DebugAnnotation */
#define PF_DA_NAME_IID			1
#define PF_DA_UINT			3
#define PF_DA_INT			4
#define PF_DA_DOUBLE			5
#define PF_DA_STRING			6
#define PF_DA_POINTER			7
#define PF_DA_NAME			10
/* InternedData: EventCategory, EventName, DebugAnnotationName lists */
#define PF_ID_CATEGORIES		1
#define PF_ID_NAMES			2
#define PF_ID_ANNOTATION_NAMES		3
#define PF_ID_IID			1	/* in each entry */
#define PF_ID_NAME			2
/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor, CounterDescriptor */
#define PF_TD_UUID			1
#define PF_TD_NAME			2
#define PF_TD_PROCESS			3
#define PF_TD_THREAD			4
#define PF_TD_PARENT			5
#define PF_TD_COUNTER			8
#define PF_PD_PID			1
#define PF_PD_NAME			6
#define PF_THD_PID			1
#define PF_THD_TID			2
#define PF_THD_NAME			5
#define PF_CD_CATEGORIES		2

/* The one-byte tag of field (below 16), as a word to shift into place. */
#define PF_WT(field, w)	((uint64_t)((field) << 3 | (w)))

/* Two bytes a turn: time stamps take six. */
static inline uint8_t *pf_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x4000) {
		p[0] = (uint8_t)(v | 0x80);
		p[1] = (uint8_t)(v >> 7 | 0x80);
		p += 2;
		v >>= 14;
	}
	if (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* A tag; one byte for the fields below 16 (folded when field is known). */
static inline uint8_t *pf_tag(uint8_t *p, unsigned field, enum pf_wire w)
{
	uint64_t t = (uint64_t)field << 3 | w;

	if (t < 0x80) {
		*p = (uint8_t)t;
		return p + 1;
	}
	return pf_varint(p, t);
}

static inline uint8_t *pf_uint(uint8_t *p, unsigned field, uint64_t v)
{
	return pf_varint(pf_tag(p, field, PF_VARINT), v);
}

static inline uint8_t *pf_double(uint8_t *p, unsigned field, double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	p = pf_tag(p, field, PF_I64);
	for (int i = 0; i < 8; i++)
		*p++ = (uint8_t)(u >> (8 * i));
	return p;
}

/* Bytes as they are (the caller knows they are valid UTF-8). */
static inline uint8_t *pf_bytes(uint8_t *p, unsigned field, const void *s,
				size_t len)
{
	p = pf_varint(pf_tag(p, field, PF_LEN), len);
	memcpy(p, s, len);
	return p + len;
}

/* Open a nested message: its tag and a one byte length, filled by close. */
static inline uint8_t *pf_open(uint8_t **p, unsigned field)
{
	uint8_t *mark = pf_tag(*p, field, PF_LEN);

	*p = mark + 1;
	return mark;
}

/* Close the message opened at mark, p its end; the new end. */
static inline uint8_t *pf_close(uint8_t *mark, uint8_t *p)
{
	size_t len = (size_t)(p - mark - 1), n = 1;
	uint8_t tmp[10];

	if (len < 0x80) {
		*mark = (uint8_t)len;
		return p;
	}
	n = (size_t)(pf_varint(tmp, len) - tmp);
	memmove(mark + n, mark + 1, len);
	memcpy(mark, tmp, n);
	return p + n - 1;
}

/*
 * Stores of the wire's bytes in the order they go out: a word of several
 * fields (a constant run of tags and values, a tag and its one byte
 * length) in one store.
 */
static inline void pf_le64(uint8_t *p, uint64_t x)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	memcpy(p, &x, 8);
}

static inline void pf_le32(uint8_t *p, uint32_t x)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap32(x);
#endif
	memcpy(p, &x, 4);
}

static inline uint64_t pf_get_le64(const uint8_t *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* The bytes of v's varint, 1 to 10: (bits * 9 + 64) / 64. */
static inline unsigned pf_varint_len(uint64_t v)
{
	unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1);

	return (bits * 9 + 64) >> 6;
}

/* The 28 bits of v spread to 7 a byte: two steps of 14 and 7 bits a lane. */
static inline uint32_t pf_spread28(uint32_t v)
{
	v = (v & 0x3fff) | (v & 0xfffc000) << 2;
	return (v & 0x007f007f) | (v & 0x3f803f80) << 1;
}

/*
 * v's varint of n (pf_varint_len()) bytes, without a loop: its bits
 * spread to 7 a byte 28 at a time (the low 28, the next 28 in the high
 * half below 2^56; a 32-bit number's fifth byte as it is), the
 * continuation bits from a table, the top 8 bits of 64 two bytes more.
 * Eight bytes are stored whatever n is, ten past 2^56: the caller has
 * room for them.
 */
static inline uint8_t *pf_varint_n(uint8_t *p, uint64_t v, unsigned n)
{
	static const uint64_t cont[11] = {
		0, 0, 0x80, 0x8080, 0x808080, 0x80808080, 0x8080808080,
		0x808080808080, 0x80808080808080, 0x8080808080808080,
		0x8080808080808080,
	};
	uint64_t x = pf_spread28((uint32_t)v & 0xfffffff), hi = v >> 28;

	if (hi >= 0x80) {
		hi = pf_spread28((uint32_t)hi & 0xfffffff);
		/* an address's, most of the time: its bit 63 is the 10th
		 * byte and the 9th's continuation bit */
		p[8] = (uint8_t)(v >> 56);
		p[9] = (uint8_t)(v >> 63);
	}
	pf_le64(p, x | hi << 32 | cont[n]);
	return p + n;
}

/* Room a nested message may need beyond its content. */
#define PF_NEST		12

#endif
