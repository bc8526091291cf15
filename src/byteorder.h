// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Integers of a file written in either byte order: read from any
 * alignment, swapped when the file's order is not the machine's.
 */
#ifndef KTF_BYTEORDER_H
#define KTF_BYTEORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t bo_u16(bool swap, const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t bo_u32(bool swap, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t bo_u64(bool swap, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

#endif
