// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The classic rule file of the 2008 kvmtrace_format: "ID TEMPLATE" lines,
 * '#' in column 0 and empty lines skipped, everything else must match
 * (\S+)\s+(\S.*). The template keeps its trailing blanks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rules-classic.h"

static bool classic_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int classic_line(struct rules *r, const char *name, unsigned lineno,
			const char *line, size_t len, struct diag *d)
{
	struct rule rule = { 0 };
	const char *why = NULL, *msg;
	size_t idlen = 0, t;
	unsigned ecol;
	int ret;

	while (idlen < len && !classic_space(line[idlen]))
		idlen++;
	t = idlen;
	while (t < len && classic_space(line[t]))
		t++;
	if (idlen == 0 || t == idlen || t == len) {
		diag_at(d, name, lineno, idlen == 0 ? 1 : (unsigned)t + 1, line,
			len, "expected 'ID TEMPLATE' (an event id, blanks, a template)");
		return -EINVAL;
	}
	ret = rules_parse_id(line, idlen, &rule, &why);
	if (ret < 0) {
		diag_at(d, name, lineno, 1, line, len, "%s", why);
		goto error;
	}
	ret = tmpl_compile(line + t, len - t, &rule.tmpl, &ecol, &msg);
	if (ret < 0) {
		diag_at(d, name, lineno, (unsigned)t + ecol, line, len, "%s",
			msg);
		goto error;
	}
	rule.line = lineno;
	rule.col = (unsigned)t + 1;
	rule.line_text = line;
	rule.line_len = len;
	ret = rules_add(r, &rule);
	if (ret < 0)
		goto error;
	return 0;
error:
	if (ret == -ENOMEM)
		diag_set(d, "%s: out of memory", name);
	rule_fini(&rule);
	return ret;
}

int rules_parse_classic(const char *name, const char *buf, size_t len,
			struct rules **out, struct diag *d)
{
	struct rules *r;
	unsigned lineno = 0;
	size_t pos = 0;
	int ret = 0;

	*out = NULL;
	/* a UTF-8 byte order mark (some editors write one) is no part of a rule */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	r = rules_create(name);
	if (!r) {
		diag_set(d, "%s: out of memory", name);
		return -ENOMEM;
	}
	while (pos < len) {
		const char *line = buf + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - line) : len - pos;
		const char *nul;

		pos += ll + (nl ? 1 : 0);
		lineno++;
		nul = memchr(line, '\0', ll);
		if (nul) {
			diag_at(d, name, lineno, (unsigned)(nul - line) + 1,
				line, ll, "NUL byte in a rule file (a binary file? give the rule file with -f, the traces after it)");
			ret = -EINVAL;
			goto error;
		}
		/* a CRLF file: the CR is not part of the template */
		if (ll && line[ll - 1] == '\r')
			ll--;
		if (ll == 0 || line[0] == '#')
			continue;
		ret = classic_line(r, name, lineno, line, ll, d);
		if (ret < 0)
			goto error;
	}
	if (r->n == 0 && !len) {
		/* an empty input given first is taken for the rule file */
		diag_set(d, "%s: empty (0 bytes): no rules (a rule is a line 'ID TEMPLATE'), nor events if it was meant as an input",
			 name);
		ret = -EINVAL;
		goto error;
	}
	if (r->n == 0) {
		diag_set(d, "%s: no rules: a rule is a line 'ID TEMPLATE'",
			 name);
		ret = -EINVAL;
		goto error;
	}
	*out = r;
	return 0;
error:
	rules_destroy(r);
	return ret;
}
