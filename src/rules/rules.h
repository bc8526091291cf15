/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading rules: the entry point of the rule module. rules.c chooses the
 * parser (rules-classic.h, rules-yaml.h); both build the table of
 * rules-table.h, which is all that the renderer and the sinks use.
 *
 *   rules.c  ->  rules-classic.c, rules-yaml*.c  ->  rules-table.c
 */
#ifndef KTF_RULES_H
#define KTF_RULES_H

#include "rules-table.h"

struct diag;

/* Load a rule file: YAML for .yaml/.yml, else the classic syntax. */
int rules_load(const char *path, struct rules **out, struct diag *d);
/* The rules compiled into the binary (formats/kvmtrace). */
int rules_load_default(struct rules **out, struct diag *d);

#endif
