/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classic rule syntax of the 2008 tool: "ID TEMPLATE" lines. */
#ifndef KTF_RULES_CLASSIC_H
#define KTF_RULES_CLASSIC_H

#include <stddef.h>

#include "rules-table.h"

struct diag;

/*
 * Parse classic rules from memory; name is used in messages. The rules'
 * line_text points into buf, which must outlive them (rules.text).
 */
int rules_parse_classic(const char *name, const char *buf, size_t len,
			struct rules **out, struct diag *d);

#endif
