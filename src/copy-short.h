/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Copies of a few bytes whose count is known only at run time (event
 * names, argument keys, JSON heads): two loads that may overlap, all
 * within the source, and two stores, where a call of memcpy would cost
 * more than the copy. The renderer's strings and --chrome's keys and
 * heads go through it.
 */
#ifndef KTF_COPY_SHORT_H
#define KTF_COPY_SHORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* n bytes of s to p (the two must not overlap) */
static inline __attribute__((always_inline)) void
copy_short(char *p, const char *s, size_t n)
{
	if (n > 16) {
		char a[32], z[32];

		if (n > 64) {
			memcpy(p, s, n);
		} else if (n > 32) {
			memcpy(a, s, 32);
			memcpy(z, s + n - 32, 32);
			memcpy(p, a, 32);
			memcpy(p + n - 32, z, 32);
		} else {
			/* (event names of 17 .. 32 bytes:
			 * kvm_apicv_inhibit_changed) */
			memcpy(a, s, 16);
			memcpy(z, s + n - 16, 16);
			memcpy(p, a, 16);
			memcpy(p + n - 16, z, 16);
		}
	} else if (n >= 8) {
		uint64_t a, z;

		memcpy(&a, s, 8);
		memcpy(&z, s + n - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + n - 8, &z, 8);
	} else if (n >= 4) {
		uint32_t a, z;

		memcpy(&a, s, 4);
		memcpy(&z, s + n - 4, 4);
		memcpy(p, &a, 4);
		memcpy(p + n - 4, &z, 4);
	} else if (n) {
		char a = s[0], m = s[n / 2], z = s[n - 1];

		p[0] = a;
		p[n / 2] = m;
		p[n - 1] = z;
	}
}

#endif
