/* SPDX-License-Identifier: GPL-2.0-or-later */
/* YAML rule files (schema v1, kvmtrace_format-formats(5)). */
#ifndef KTF_RULES_YAML_H
#define KTF_RULES_YAML_H

#include <stddef.h>

#include "rules-table.h"

struct diag;

#ifdef HAVE_YAML
/*
 * Parse a YAML rule file from memory; name is used in messages. The
 * rules' line_text points into buf, which must outlive them (rules.text).
 */
int rules_parse_yaml(const char *name, const char *buf, size_t len,
		     struct rules **out, struct diag *d);
#endif

#endif
