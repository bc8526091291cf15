// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading a rule file, top-down: read it, choose the parser by its name
 * (YAML for .yaml/.yml, else the classic syntax), parse. The parsers
 * build the table with rules-table.h and never call back up here.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "rules.h"
#include "rules-classic.h"
#include "rules-yaml.h"

/* formats/kvmtrace, compiled in (default-rules.c, generated) */
extern const char rules_default_text[];
extern const size_t rules_default_len;

static int rules_read_file(const char *path, char **buf, size_t *len,
		    struct diag *d)
{
	size_t cap = 0, n = 0, first = 65536;
	struct stat st;
	char *b = NULL;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		diag_set(d, "%s: cannot open the rule file: %s", path,
			 strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) < 0)
		st.st_mode = 0;	/* nothing known: read as a stream */
	if (S_ISDIR(st.st_mode)) {
		diag_set(d, "%s: is a directory, not a rule file", path);
		ret = -EISDIR;
		goto end;
	}
	/* a regular file: its size at once (room for one byte more, to see
	 * the end), not 64 KiB doubled to it */
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		first = (uint64_t)st.st_size < RULES_FILE_MAX ?
				(size_t)st.st_size + 1 : RULES_FILE_MAX;
	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *nb;

			if (cap >= RULES_FILE_MAX) {
				diag_set(d, "%s: rule file larger than %u MiB",
					 path, RULES_FILE_MAX >> 20);
				ret = -EFBIG;
				goto end;
			}
			cap = cap ? cap * 2 : first;
			if (cap > RULES_FILE_MAX)
				cap = RULES_FILE_MAX;
			nb = realloc(b, cap + 1);
			if (!nb) {
				ret = -ENOMEM;
				diag_set(d, "%s: out of memory", path);
				goto end;
			}
			b = nb;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			diag_set(d, "%s: cannot read the rule file: %s", path,
				 strerror(errno));
			goto end;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	if (!b) {
		b = malloc(1);
		if (!b) {
			ret = -ENOMEM;
			goto end;
		}
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	b = NULL;
end:
	free(b);
	close(fd);
	return ret;
}

static bool rules_is_yaml(const char *path)
{
	size_t n = strlen(path);

	return (n > 5 && !strcmp(path + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(path + n - 4, ".yml"));
}

int rules_load(const char *path, struct rules **out, struct diag *d)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	ret = rules_read_file(path, &buf, &len, d);
	if (ret < 0)
		return ret;
	if (rules_is_yaml(path)) {
#ifdef HAVE_YAML
		ret = rules_parse_yaml(path, buf, len, out, d);
#else
		diag_set(d, "%s: YAML rule files need libyaml; this kvmtrace_format was built without it",
			 path);
		ret = -ENOTSUP;
#endif
	} else {
		ret = rules_parse_classic(path, buf, len, out, d);
	}
	if (ret == 0) {
		/* the rules point into it (rule.line_text) */
		(*out)->text = buf;
		buf = NULL;
	}
	free(buf);
	return ret;
}

int rules_load_default(struct rules **out, struct diag *d)
{
	return rules_parse_classic("(built-in rules)", rules_default_text,
				   rules_default_len, out, d);
}
