// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace data directories, as `uftrace record`, QEMU's uftrace plugin
 * (contrib/plugins/uftrace.c) and rftrace (hermit-os) write them:
 *
 *   info           "Ftrace!\0", u32 version (3, 4), u16 header size, u8
 *                  endian (1 little, 2 big), u8 ELF class (1, 2), u64
 *                  feature mask, u64 info mask, ...; then "key:value" lines
 *   task.txt       SESS, TASK, FORK and DLOP lines
 *   sid-SID.map    the memory map of a session (/proc/PID/maps lines)
 *   NAME.sym       symbols: "ADDR TYPE NAME" or "ADDR SIZE TYPE NAME"
 *   NAME.dbg       debug info; its "A:" and "R:" lines are auto-args specs
 *   events.txt     names of user events ("EVENT: ID PROVIDER:NAME")
 *   TID.dat        the records of one task, 16 bytes each:
 *                    u64 time
 *                    u64 type:2 more:1 magic:3 (= 5) depth:10 addr:48
 *                  With "more" set a payload follows, padded to 8 bytes:
 *                  event data (u16 size, data) or the arguments or return
 *                  value of the function, laid out by its argument spec
 *                  (libmcount/record.c: no length; a string is u16 length
 *                  then text, every value padded to 4 bytes).
 *
 * The tasks' records merge into one time order on a small heap (ties: tid
 * order, then file order). Depth and duration come from a call stack kept
 * per task, since the depth field of some writers is wrong (QEMU's plugin
 * counts from 1 and stamps exits with the caller's depth; rftrace writes 0).
 * Only the metadata files are read whole; the .dat files stream through a
 * small buffer each.
 *
 * Problems in the data do not stop the other tasks: each is noted where it
 * was found (file and offset, or file and line), the task concerned stops
 * there, and next() reports them all after the last good event.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "source.h"

#define UFT_MAGIC		"Ftrace!"
#define UFT_HDR_MIN		32	/* v3 headers end after the info mask */
#define UFT_REC_SIZE		16
#define UFT_REC_MAGIC		5
#define UFT_BUF_SIZE		(64u << 10)
#define UFT_SYMCACHE		256
#define UFT_ADDR_MASK		((UINT64_C(1) << 48) - 1)
#define UFT_NO_ADDR		UINT64_MAX	/* a frame we never saw enter */
#define UFT_RETVAL_IDX		(-1)

#define UFT_FEAT_SYM_REL_ADDR	(UINT64_C(1) << 5)

/* libmcount's built-in event ids (uftrace.h: enum uftrace_event_id) */
#define UFT_EVENT_BUILTIN	100000u
#define UFT_EVENT_PERF		200000u
#define UFT_EVENT_USER		1000000u
#define UFT_EVENT_EXTERN	2000000u

#define UFT_ALIGN(x, a)		(((x) + (a) - 1) & ~(uint64_t)((a) - 1))

enum uft_rtype {
	UFT_ENTRY = 0,
	UFT_EXIT,
	UFT_LOST,
	UFT_EVENT,
	UFT_NTYPES,
};

enum uft_writer {
	UFT_WRITER_UFTRACE = 0,	/* record depth fields can be trusted */
	UFT_WRITER_QEMU,	/* per-vCPU tasks, tid (vcpu + 1) * 100 + level */
	UFT_WRITER_RFTRACE,	/* raw TSC, depth 0 everywhere */
};

enum uft_patt {
	UFT_PATT_SIMPLE = 0,
	UFT_PATT_REGEX,
	UFT_PATT_GLOB,
};

/* One value of an argument spec ("arg2/s", "fparg1/32", "retval/i32"). */
struct uft_arg {
	int idx;		/* argN: N; fpargN: N; retval: UFT_RETVAL_IDX */
	bool fp;		/* fpargN (a different register file) */
	bool str;		/* u16 length, then the text */
	bool exact;		/* from an exact name, not a pattern */
	uint32_t size;		/* bytes before padding to 4 */
};

struct uft_argv {
	struct uft_arg *v;	/* owned */
	size_t n;
};

/* One "PATTERN@spec,spec" entry of the argspec or retspec line. */
struct uft_pspec {
	char *pattern;		/* owned */
	enum uft_patt patt;
	regex_t re;		/* UFT_PATT_REGEX */
	struct uft_argv args;	/* owned */
	bool auto_arg;		/* no explicit spec: the auto-args one */
	bool auto_ret;
};

/* A function of argauto/retauto or of a .dbg file: NAME and its specs. */
struct uft_auto {
	char *name;		/* owned */
	char *args;		/* owned: "arg1/s,arg2" or NULL */
	char *rets;		/* owned: "retval/d32" or NULL */
};

struct uft_sym {
	uint64_t addr;
	uint64_t size;
	const char *name;		/* borrowed from the symtab's pool */
	uint32_t namelen;
	char type;
	const struct uft_argv *args;	/* borrowed; NULL: not resolved yet */
};

/* The symbols of one module: NAME.sym (and NAME.dbg for auto-args). */
struct uft_symtab {
	char *name;		/* owned: file name of the module */
	struct uft_sym *v;	/* owned, sorted by address */
	size_t n;
	char *pool;		/* owned: the .sym file, names point into it */
	bool loaded;
	struct uft_auto *dbg;	/* owned: A:/R: lines of NAME.dbg */
	size_t ndbg;
	bool dbg_loaded;
};

struct uft_map {
	uint64_t start;
	uint64_t end;
	struct uft_symtab *mod;	/* borrowed from uf->mods */
};

/* sid-SID.map */
struct uft_sidmap {
	char *sid;		/* owned */
	struct uft_map *v;	/* owned */
	size_t n;
	bool loaded;
};

struct uft_dlopen {
	uint64_t time;
	uint64_t base;
	struct uft_symtab *mod;	/* borrowed */
};

struct uft_session {
	int64_t pid;
	uint64_t start;
	struct uft_sidmap *map;	/* borrowed from uf->sidmaps */
	char *exename;		/* owned */
	const char *comm;	/* borrowed: the base name of exename */
	struct uft_dlopen *dl;	/* owned, in task.txt order */
	size_t ndl;
};

struct uft_frame {
	uint64_t addr;		/* UFT_NO_ADDR: entered before the data */
	uint64_t ts;
};

struct uft_rec {
	uint64_t ts;
	uint64_t addr;
	uint32_t depth;		/* as written */
	uint8_t type;
	bool more;
};

struct uft_task {
	int64_t tid;
	int64_t pid;
	int64_t ppid;
	uint32_t order;			/* position in tid order */
	char *path;			/* owned: DIR/TID.dat */
	int fd;				/* -1: closed */
	unsigned char *buf;		/* owned */
	size_t cap;
	size_t pos;			/* next unread byte */
	size_t len;			/* bytes held */
	uint64_t foff;			/* file offset of buf[len] */
	uint64_t fsize;			/* as the file was opened */
	bool eof;
	bool done;			/* no more records */
	bool resync;			/* at the start, or after LOST */
	uint64_t last_ts;		/* of the record before rec */
	struct uft_rec rec;		/* the next record (when !done) */
	struct uft_frame *stack;	/* owned */
	size_t depth;
	size_t stack_cap;
	const struct uft_session *sess;	/* borrowed: cache for sess_until */
	const struct uft_session *stack_sess;	/* borrowed: of the stack */
	uint64_t sess_from;
	uint64_t sess_until;
	uint32_t cpu;
	bool has_vcpu;
	char tid_text[24];		/* the tid as the dump prints it: "%5d" */
	uint8_t tid_len;
};

struct uft_symcache {
	const struct uft_sidmap *map;	/* borrowed; NULL: empty slot */
	uint64_t addr;
	struct uft_sym *sym;		/* borrowed; NULL: no symbol */
	struct uft_symtab *mod;		/* borrowed; the module of addr */
};

struct uft_evname {
	uint32_t id;
	char *name;		/* owned: "provider:event" */
};

/* The fields of the current event (ev->rec points here). */
struct uft_cur {
	const struct uft_task *task;	/* borrowed */
	struct uft_rec rec;
	uint64_t depth;
	uint64_t duration;
	const char *symbol;		/* borrowed, or buf */
	size_t symlen;
	bool resolved;
	const char *comm;		/* borrowed */
	char buf[64];
};

struct uftrace {
	char *dir;			/* owned: the path without trailing '/' */
	uint64_t sec_key;		/* the seconds of the last default line */
	char sec_text[24];		/* … in decimal, then '.' */
	size_t sec_len;
	bool swap;			/* big-endian data */
	bool lp64;
	bool rel_addr;			/* SYM_REL_ADDR */
	enum uft_writer writer;
	enum uft_patt patt;		/* pattern_type of the recording */
	bool auto_args;			/* "auto-args:1" */
	char *cmdline;			/* owned */
	struct uft_pspec *specs;	/* owned: argspec, then retspec */
	size_t nspecs;
	struct uft_auto *autos;		/* owned: argauto and retauto */
	size_t nautos;
	struct uft_symtab **mods;	/* owned */
	size_t nmods;
	struct uft_sidmap **sidmaps;	/* owned */
	size_t nsidmaps;
	struct uft_session *sess;	/* owned */
	size_t nsess;
	struct uft_evname *evnames;	/* owned: events.txt */
	size_t nevnames;
	struct uft_task *tasks;		/* owned, in tid order */
	size_t ntasks;
	uint32_t *heap;			/* owned: task indices */
	size_t nheap;
	struct uft_argv **argvs;	/* owned: resolved argument lists */
	size_t nargvs;
	struct uft_argv no_args;	/* resolved: nothing */
	struct uft_symcache cache[UFT_SYMCACHE];
	struct event_type types[UFT_NTYPES];
	struct uft_cur cur;
	uint64_t seq;
	char **problems;		/* owned: messages, in the order found */
	size_t nproblems;
	bool nomem;			/* a problem could not be noted */
	bool reported;
};

/* ------------------------------------------------------------ helpers */

static void uft_problem(struct uftrace *uf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void uft_problem(struct uftrace *uf, const char *fmt, ...)
{
	char **n;
	char *msg;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (ret < 0) {
		uf->nomem = true;
		return;
	}
	n = realloc(uf->problems, (uf->nproblems + 1) * sizeof(*n));
	if (!n) {
		free(msg);
		uf->nomem = true;
		return;
	}
	uf->problems = n;
	uf->problems[uf->nproblems++] = msg;
}

static inline uint16_t uft_u16(const struct uftrace *uf, const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return uf->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t uft_u32(const struct uftrace *uf, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return uf->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t uft_u64(const struct uftrace *uf, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return uf->swap ? __builtin_bswap64(v) : v;
}

/* Read a metadata file whole, NUL-terminated. 0 or a negative errno. */
static int uft_read_file(const char *path, char **out, size_t *lenp)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, ret = 0;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto end;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		ret = -ENOMEM;
		goto end;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto end;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	if (lenp)
		*lenp = len;
	buf = NULL;
end:
	free(buf);
	close(fd);
	return ret;
}

/* Lines of a buffer, split in place ('\n' and a '\r' before it become NUL). */
struct uft_lines {
	char *p;
	char *end;
	unsigned lineno;
};

static char *uft_line(struct uft_lines *it)
{
	char *line = it->p, *nl;

	if (it->p >= it->end)
		return NULL;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	if (!nl)
		nl = it->end;
	*nl = '\0';
	if (nl > line && nl[-1] == '\r')
		nl[-1] = '\0';
	it->p = nl + 1;
	it->lineno++;
	return line;
}

static char *uft_path(const struct uftrace *uf, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", uf->dir, name) < 0)
		return NULL;
	return p;
}

static const char *uft_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* "SEC.FRAC" as nanoseconds (task.txt time stamps). */
static bool uft_parse_time(const char *s, uint64_t *out)
{
	uint64_t sec = 0, ns = 0;
	unsigned digits = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		sec = sec * 10 + (uint64_t)(*s++ - '0');
	if (*s == '.') {
		s++;
		while (isdigit((unsigned char)*s)) {
			if (digits < 9) {
				ns = ns * 10 + (uint64_t)(*s - '0');
				digits++;
			}
			s++;
		}
	}
	for (; digits < 9; digits++)
		ns *= 10;
	*out = sec * 1000000000u + ns;
	return true;
}

/* The value of " KEY=" in a task.txt line (KEY at the start counts too). */
static const char *uft_kv(const char *line, const char *key)
{
	size_t kl = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=')
			return p + kl + 1;
		p += kl;
	}
	return NULL;
}

static bool uft_kv_int(const char *line, const char *key, int base,
		       int64_t *out)
{
	const char *v = uft_kv(line, key);
	char *end;
	long long n;

	if (!v)
		return false;
	errno = 0;
	n = strtoll(v, &end, base);
	if (errno || end == v || (*end && *end != ' '))
		return false;
	*out = n;
	return true;
}

/* The quoted value KEY="..." (up to the last quote of the line), copied. */
static char *uft_kv_quoted(const char *line, const char *key, bool *bad)
{
	const char *v = uft_kv(line, key), *q;
	char *s;

	*bad = false;
	if (!v || *v != '"') {
		*bad = true;
		return NULL;
	}
	q = strrchr(v + 1, '"');
	if (!q) {
		*bad = true;
		return NULL;
	}
	s = strndup(v + 1, (size_t)(q - v - 1));
	return s;
}

/* ------------------------------------------------------------ symbols */

static int uft_sym_cmp(const void *a, const void *b)
{
	const struct uft_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool uft_sym_end_name(const char *name)
{
	return !strcmp(name, "__sym_end") || !strcmp(name, "__dynsym_end") ||
	       !strcmp(name, "__func_end");
}

/*
 * An nm line without an address: "                 U puts". nm -n output
 * (rftrace asks for it) has them; they are not symbols and not garbage.
 */
static bool uft_sym_undefined(const char *line)
{
	while (*line == ' ')
		line++;
	return isalpha((unsigned char)line[0]) && line[1] == ' ' && line[2];
}

/*
 * NAME.sym, as uftrace's load_module_symbol_file() reads it: "ADDR TYPE
 * NAME" or "ADDR SIZE TYPE NAME" (hex), '#' comments; types "?TtwPKDdvu"
 * only; a repeated address and type is an alias and skipped; a symbol
 * without size ends where the next one (or a '?' / __sym_end line) starts.
 */
static void uft_load_symtab(struct uftrace *uf, struct uft_symtab *st)
{
	static const char allowed[] = "?TtwPKDdvu";
	struct uft_lines it;
	uint64_t prev_addr = UINT64_MAX;
	char prev_type = 'X';
	unsigned bad = 0, first_bad = 0;
	char *path, *file, *line;
	size_t len, cap = 0;
	int ret;

	st->loaded = true;
	if (asprintf(&file, "%s.sym", st->name) < 0) {
		uf->nomem = true;
		return;
	}
	path = uft_path(uf, file);
	free(file);
	if (!path) {
		uf->nomem = true;
		return;
	}
	ret = uft_read_file(path, &st->pool, &len);
	if (ret < 0) {
		/* modules without symbols are normal: addresses stay hex */
		if (ret != -ENOENT)
			uft_problem(uf, "%s: cannot read: %s", path,
				    strerror(-ret));
		free(path);
		return;
	}
	it = (struct uft_lines){ st->pool, st->pool + len, 0 };
	while ((line = uft_line(&it))) {
		uint64_t addr, size = 0;
		struct uft_sym *sym;
		char *p, *q, *tab, type;

		if (*line == '#' || *line == '\0')
			continue;
		errno = 0;
		addr = strtoull(line, &p, 16);
		if (p == line || *p != ' ' || errno) {
			if (!uft_sym_undefined(line) && !bad++)
				first_bad = it.lineno;
			continue;
		}
		p++;
		q = strchr(p, ' ');
		if (q && q - p > 1) {
			/* the size column */
			errno = 0;
			size = strtoull(p, &q, 16);
			if (*q != ' ' || errno || size > UINT64_MAX - addr) {
				if (!bad++)
					first_bad = it.lineno;
				continue;
			}
			p = q + 1;
		}
		type = *p;
		if (!type || p[1] != ' ' || !p[2]) {
			if (!bad++)
				first_bad = it.lineno;
			continue;
		}
		p += 2;
		tab = strchr(p, '\t');	/* "name\t[module]" of kallsyms */
		if (tab)
			*tab = '\0';
		if (addr == prev_addr && type == prev_type)
			continue;
		if (!strchr(allowed, type))
			continue;
		prev_addr = addr;
		prev_type = type;
		if (type == '?' || uft_sym_end_name(p)) {
			if (st->n && !st->v[st->n - 1].size)
				st->v[st->n - 1].size = addr - st->v[st->n - 1].addr;
			continue;
		}
		if (st->n == cap) {
			struct uft_sym *n;

			cap = cap ? cap * 2 : 256;
			n = realloc(st->v, cap * sizeof(*n));
			if (!n) {
				uf->nomem = true;
				break;
			}
			st->v = n;
		}
		sym = &st->v[st->n++];
		*sym = (struct uft_sym){ .addr = addr, .size = size, .name = p,
					 .namelen = (uint32_t)strlen(p),
					 .type = type };
		if (st->n > 1 && !sym[-1].size)
			sym[-1].size = addr - sym[-1].addr;
	}
	if (bad)
		uft_problem(uf, "%s:%u: not a symbol line (ADDR [SIZE] TYPE NAME)%s",
			    path, first_bad,
			    bad > 1 ? "; more such lines follow" : "");
	if (st->n)
		qsort(st->v, st->n, sizeof(*st->v), uft_sym_cmp);
	free(path);
}

static struct uft_sym *uft_find_sym(struct uftrace *uf, struct uft_symtab *st,
				    uint64_t addr)
{
	size_t lo = 0, hi;

	if (!st->loaded)
		uft_load_symtab(uf, st);
	hi = st->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct uft_sym *s = &st->v[mid];

		if (addr < s->addr)
			hi = mid;
		else if (addr - s->addr >= s->size)
			lo = mid + 1;
		else
			return s;
	}
	return NULL;
}

static struct uft_symtab *uft_module(struct uftrace *uf, const char *path)
{
	const char *base = uft_basename(path);
	struct uft_symtab **n, *st;
	size_t i;

	for (i = 0; i < uf->nmods; i++)
		if (!strcmp(uf->mods[i]->name, base))
			return uf->mods[i];
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->name = strdup(base);
	n = realloc(uf->mods, (uf->nmods + 1) * sizeof(*n));
	if (!st->name || !n) {
		free(st->name);
		free(st);
		if (n)
			uf->mods = n;
		return NULL;
	}
	uf->mods = n;
	uf->mods[uf->nmods++] = st;
	return st;
}

/*
 * sid-SID.map: "START-END PROT OFF DEV INODE PATH [build-id:...]". As in
 * uftrace's read_session_map(): the first mapping of a path starts it and
 * later ones of the same path extend it; [stack] and anonymous lines are
 * skipped.
 */
static void uft_load_sidmap(struct uftrace *uf, struct uft_sidmap *sm)
{
	struct uft_lines it;
	char *path, *buf, *line, *file, *last = NULL;
	size_t len, cap = 0;
	int ret;

	sm->loaded = true;
	if (asprintf(&file, "sid-%s.map", sm->sid) < 0) {
		uf->nomem = true;
		return;
	}
	path = uft_path(uf, file);
	free(file);
	if (!path) {
		uf->nomem = true;
		return;
	}
	ret = uft_read_file(path, &buf, &len);
	if (ret < 0) {
		uft_problem(uf, "%s: cannot read: %s; the functions of session %s stay unnamed",
			    path, strerror(-ret), sm->sid);
		free(path);
		return;
	}
	it = (struct uft_lines){ buf, buf + len, 0 };
	while ((line = uft_line(&it))) {
		unsigned long long start, end;
		struct uft_map *m;
		char *name;
		int off = 0;

		if (*line == '#' || *line == '\0')
			continue;
		if (sscanf(line, "%llx-%llx %*s %*x %*x:%*x %*u %n", &start,
			   &end, &off) < 2 || !off)
			continue;
		/* the path, without a trailing "build-id:..." */
		name = line + off;
		name[strcspn(name, " \t")] = '\0';
		if (!*name || *name == '[')
			continue;	/* anonymous, [stack], [vdso] */
		if (last && !strcmp(last, name)) {
			sm->v[sm->n - 1].end = end;
			continue;
		}
		if (sm->n == cap) {
			struct uft_map *n;

			cap = cap ? cap * 2 : 16;
			n = realloc(sm->v, cap * sizeof(*n));
			if (!n) {
				uf->nomem = true;
				break;
			}
			sm->v = n;
		}
		m = &sm->v[sm->n];
		m->start = start;
		m->end = end;
		m->mod = uft_module(uf, name);
		if (!m->mod) {
			uf->nomem = true;
			break;
		}
		sm->n++;
		last = name;	/* lives in buf until the end */
	}
	free(buf);
	free(path);
}

static struct uft_sidmap *uft_sidmap(struct uftrace *uf, const char *sid)
{
	struct uft_sidmap **n, *sm;
	size_t i;

	for (i = 0; i < uf->nsidmaps; i++)
		if (!strcmp(uf->sidmaps[i]->sid, sid))
			return uf->sidmaps[i];
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		return NULL;
	sm->sid = strdup(sid);
	n = realloc(uf->sidmaps, (uf->nsidmaps + 1) * sizeof(*n));
	if (!sm->sid || !n) {
		free(sm->sid);
		free(sm);
		if (n)
			uf->sidmaps = n;
		return NULL;
	}
	uf->sidmaps = n;
	uf->sidmaps[uf->nsidmaps++] = sm;
	return sm;
}

/* The latest session of pid started by ts, or NULL; *first its earliest. */
static const struct uft_session *uft_pid_session(const struct uftrace *uf,
						 int64_t pid, uint64_t ts,
						 const struct uft_session **first)
{
	const struct uft_session *best = NULL;
	size_t i;

	*first = NULL;
	for (i = 0; i < uf->nsess; i++) {
		const struct uft_session *s = &uf->sess[i];

		if (s->pid != pid)
			continue;
		if (!*first || s->start < (*first)->start)
			*first = s;
		if (s->start <= ts && (!best || s->start >= best->start))
			best = s;
	}
	return best;
}

/*
 * The session of task t at time ts (cached per task): the latest one of
 * its pid begun by then; before that (a forked child before it calls
 * exec) its parent's; else the first one of its pid or of its parent.
 */
static const struct uft_session *uft_task_session_find(struct uftrace *uf,
						       struct uft_task *t,
						       uint64_t ts)
{
	const struct uft_session *best, *first, *pfirst = NULL;
	uint64_t until = UINT64_MAX;
	size_t i;

	best = uft_pid_session(uf, t->pid, ts, &first);
	if (!best && t->ppid)
		best = uft_pid_session(uf, t->ppid, ts, &pfirst);
	if (!best)
		best = pfirst ? pfirst : first;
	if (!best && uf->nsess == 1)
		best = &uf->sess[0];
	if (!best) {
		t->sess = NULL;
		return NULL;
	}
	/* valid from its start (or 0) until a later session of the task's pid */
	for (i = 0; i < uf->nsess; i++) {
		const struct uft_session *s = &uf->sess[i];

		if ((s->pid == t->pid || s->pid == t->ppid ||
		     s->pid == best->pid) &&
		    s->start > ts && s->start < until)
			until = s->start;
	}
	t->sess = best;
	t->sess_from = best->start <= ts ? best->start : 0;
	t->sess_until = until;
	return best;
}

/* Per record, three times: the cached session of the task, mostly. */
static inline const struct uft_session *uft_task_session(struct uftrace *uf,
							 struct uft_task *t,
							 uint64_t ts)
{
	if (t->sess && ts >= t->sess_from && ts < t->sess_until)
		return t->sess;
	return uft_task_session_find(uf, t, ts);
}

static const struct uft_map *uft_find_map(const struct uft_sidmap *sm,
					  uint64_t addr)
{
	size_t i;

	for (i = 0; i < sm->n; i++)
		if (sm->v[i].start <= addr && addr < sm->v[i].end)
			return &sm->v[i];
	return NULL;
}

/* The symbol of addr in task t at time ts, or NULL; *modp its module. */
static struct uft_sym *uft_resolve(struct uftrace *uf, struct uft_task *t,
				   uint64_t ts, uint64_t addr,
				   struct uft_symtab **modp)
{
	const struct uft_session *s = uft_task_session(uf, t, ts);
	struct uft_sym *sym = NULL;
	struct uft_symtab *mod = NULL;
	const struct uft_map *m;
	struct uft_symcache *c;
	size_t i;

	*modp = NULL;
	if (!s || !s->map)
		return NULL;
	if (!s->map->loaded)
		uft_load_sidmap(uf, s->map);
	c = &uf->cache[(addr ^ (addr >> 7) ^ (addr >> 17)) & (UFT_SYMCACHE - 1)];
	if (c->map == s->map && c->addr == addr) {
		sym = c->sym;
		mod = c->mod;
	} else {
		m = uft_find_map(s->map, addr);
		if (m) {
			mod = m->mod;
			sym = uft_find_sym(uf, mod, uf->rel_addr ? addr - m->start
								 : addr);
			if (sym && uft_sym_end_name(sym->name))
				sym = NULL;
		}
		c->map = s->map;
		c->addr = addr;
		c->sym = sym;
		c->mod = mod;
	}
	*modp = mod;
	if (sym)
		return sym;
	/* libraries loaded by dlopen() by ts, the latest first */
	for (i = s->ndl; i-- > 0;) {
		const struct uft_dlopen *dl = &s->dl[i];

		if (dl->time > ts || addr < dl->base)
			continue;
		sym = uft_find_sym(uf, dl->mod, addr - dl->base);
		if (sym && !uft_sym_end_name(sym->name)) {
			*modp = dl->mod;
			return sym;
		}
	}
	return NULL;
}

/* ------------------------------------------------------------ arg specs */

/*
 * One value spec as uftrace's parse_argspec() reads it: argN, fpargN or
 * retval, then "/FMT[BITS]" and "%LOCATION" (which does not change the
 * layout). Returns false for anything else (other trigger actions).
 */
static bool uft_parse_arg(const struct uftrace *uf, const char *s,
			  struct uft_arg *a)
{
	const char *p;
	char *end;
	long bits;

	memset(a, 0, sizeof(*a));
	a->size = uf->lp64 ? 8 : 4;
	if (!strncmp(s, "arg", 3) && isdigit((unsigned char)s[3])) {
		a->idx = (int)strtol(s + 3, &end, 10);
	} else if (!strncmp(s, "fparg", 5) && isdigit((unsigned char)s[5])) {
		a->idx = (int)strtol(s + 5, &end, 10);
		a->fp = true;
		a->size = 8;
	} else if (!strncmp(s, "retval", 6)) {
		a->idx = UFT_RETVAL_IDX;
		end = (char *)s + 6;
	} else {
		return false;
	}
	p = end;
	if (*p != '/')
		return *p == '\0' || *p == '%';
	p++;
	switch (*p) {
	case 's':
	case 'S':
		a->str = true;
		p++;
		break;
	case 'c':
		a->size = 1;
		p++;
		break;
	case 'f':
		a->size = 8;
		p++;
		break;
	case 'e':
		/* "e:NAME": the default size */
		return true;
	case 't':
		a->size = (uint32_t)strtoul(p + 1, &end, 0);
		return true;
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'o':
	case 'p':
		p++;
		break;
	default:
		if (!a->fp || !isdigit((unsigned char)*p))
			return true;
		break;
	}
	if (!isdigit((unsigned char)*p))
		return true;
	bits = strtol(p, &end, 10);
	if (bits == 8 || bits == 16 || bits == 32 || bits == 64 ||
	    (bits == 80 && (a->fp || p[-1] == 'f')))
		a->size = (uint32_t)(bits / 8);
	return true;
}

/* uftrace's add_arg_spec(): the same value again replaces, unless exact. */
static int uft_add_arg(struct uft_argv *av, const struct uft_arg *a,
		       bool exact)
{
	struct uft_arg *n;
	size_t i;

	for (i = 0; i < av->n; i++) {
		struct uft_arg *o = &av->v[i];

		if (o->fp != a->fp || o->idx != a->idx)
			continue;
		if (exact || !o->exact) {
			*o = *a;
			o->exact = exact;
		}
		return 0;
	}
	n = realloc(av->v, (av->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	av->v = n;
	av->v[av->n] = *a;
	av->v[av->n].exact = exact;
	av->n++;
	return 0;
}

/* Add the specs of a comma list ("arg1/s,arg2") to av. */
static int uft_add_args(const struct uftrace *uf, struct uft_argv *av,
			const char *list, bool exact)
{
	char *copy, *tok, *save = NULL;
	struct uft_arg a;
	int ret = 0;

	if (!list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		if (uft_parse_arg(uf, tok, &a))
			ret = uft_add_arg(av, &a, exact);
	free(copy);
	return ret;
}

/* "name@spec;name@spec;" into autos (argauto, retauto). */
static int uft_parse_autos(struct uftrace *uf, const char *line, bool ret)
{
	const char *p = line;

	while (*p) {
		const char *semi = strchr(p, ';'), *at;
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		struct uft_auto *a, *n;

		at = memchr(p, '@', len);
		if (at) {
			n = realloc(uf->autos, (uf->nautos + 1) * sizeof(*n));
			if (!n)
				return -ENOMEM;
			uf->autos = n;
			a = &uf->autos[uf->nautos];
			memset(a, 0, sizeof(*a));
			a->name = strndup(p, (size_t)(at - p));
			if (ret)
				a->rets = strndup(at + 1, len - (size_t)(at - p) - 1);
			else
				a->args = strndup(at + 1, len - (size_t)(at - p) - 1);
			uf->nautos++;
			if (!a->name || (!a->args && !a->rets))
				return -ENOMEM;
		}
		if (!semi)
			break;
		p = semi + 1;
	}
	return 0;
}

/* Most '+' a regex pattern may hold (see uft_parse_specs()). */
#define UFT_MAX_PLUS 8

static size_t uft_count_char(const char *s, char c)
{
	size_t n = 0;

	while ((s = strchr(s, c))) {
		n++;
		s++;
	}
	return n;
}

/* "PATTERN[@ACTION,...];..." of the argspec (ret false) or retspec line. */
static int uft_parse_specs(struct uftrace *uf, const char *line, bool ret)
{
	char *copy, *ent, *save = NULL;
	int err = 0;

	copy = strdup(line);
	if (!copy)
		return -ENOMEM;
	for (ent = strtok_r(copy, ";", &save); ent && !err;
	     ent = strtok_r(NULL, ";", &save)) {
		struct uft_pspec *n, *ps;
		char *at = strchr(ent, '@'), *tok, *s2 = NULL;
		bool explicit_arg = false, explicit_ret = false;

		if (at)
			*at = '\0';
		if (!*ent)
			continue;
		n = realloc(uf->specs, (uf->nspecs + 1) * sizeof(*n));
		if (!n) {
			err = -ENOMEM;
			break;
		}
		uf->specs = n;
		ps = &uf->specs[uf->nspecs];
		memset(ps, 0, sizeof(*ps));
		ps->pattern = strdup(ent);
		if (!ps->pattern) {
			err = -ENOMEM;
			break;
		}
		uf->nspecs++;
		if (!strpbrk(ent, ".?*+-^$|()[]{}"))
			ps->patt = UFT_PATT_SIMPLE;
		else
			ps->patt = uf->patt;
		/*
		 * glibc's regcomp() copies the tree once per '+' and per count
		 * of "{m,n}": "f++++…" (40 of them) takes gigabytes. Such
		 * patterns name no function; take them literally.
		 */
		if (ps->patt == UFT_PATT_REGEX &&
		    (!strncmp(ent, "operator ", 9) || strchr(ent, '{') ||
		     uft_count_char(ent, '+') > UFT_MAX_PLUS ||
		     regcomp(&ps->re, ent, REG_NOSUB | REG_EXTENDED)))
			ps->patt = UFT_PATT_SIMPLE;
		for (tok = at ? strtok_r(at + 1, ",", &s2) : NULL; tok;
		     tok = strtok_r(NULL, ",", &s2)) {
			struct uft_arg a;

			if (!strcmp(tok, "auto-args")) {
				ps->auto_arg = ps->auto_ret = true;
				continue;
			}
			if (!uft_parse_arg(uf, tok, &a))
				continue;
			if (a.idx == UFT_RETVAL_IDX)
				explicit_ret = true;
			else
				explicit_arg = true;
			err = uft_add_arg(&ps->args, &a,
					  ps->patt == UFT_PATT_SIMPLE);
			if (err)
				break;
		}
		/* "-A func" alone: the auto-args spec of func */
		if (!explicit_arg && !explicit_ret) {
			if (ret)
				ps->auto_ret = true;
			else
				ps->auto_arg = true;
		}
	}
	free(copy);
	return err;
}

static bool uft_pspec_match(const struct uft_pspec *ps, const char *name)
{
	switch (ps->patt) {
	case UFT_PATT_SIMPLE:
		return !strcmp(ps->pattern, name);
	case UFT_PATT_REGEX:
		return !regexec(&ps->re, name, 0, NULL, 0);
	case UFT_PATT_GLOB:
		return !fnmatch(ps->pattern, name, 0);
	}
	return false;
}

/* NAME.dbg: "F: ADDR NAME" then "A: @specs" / "R: @specs" lines. */
static void uft_load_dbg(struct uftrace *uf, struct uft_symtab *st)
{
	struct uft_auto *cur = NULL;
	struct uft_lines it;
	char *path, *file, *buf, *line;
	size_t len;

	st->dbg_loaded = true;
	if (asprintf(&file, "%s.dbg", st->name) < 0) {
		uf->nomem = true;
		return;
	}
	path = uft_path(uf, file);
	free(file);
	if (!path || uft_read_file(path, &buf, &len) < 0) {
		free(path);
		return;
	}
	it = (struct uft_lines){ buf, buf + len, 0 };
	while ((line = uft_line(&it))) {
		if (!strncmp(line, "F: ", 3)) {
			char *name = strchr(line + 3, ' ');
			struct uft_auto *n;

			cur = NULL;
			if (!name)
				continue;
			n = realloc(st->dbg, (st->ndbg + 1) * sizeof(*n));
			if (!n)
				break;
			st->dbg = n;
			cur = &st->dbg[st->ndbg++];
			memset(cur, 0, sizeof(*cur));
			cur->name = strdup(name + 1);
		} else if (cur && !strncmp(line, "A: @", 4)) {
			free(cur->args);
			cur->args = strdup(line + 4);
		} else if (cur && !strncmp(line, "R: @", 4)) {
			free(cur->rets);
			cur->rets = strdup(line + 4);
		}
	}
	free(buf);
	free(path);
}

/* The auto-args spec of a function: its module's debug info, then the list. */
static int uft_add_auto(struct uftrace *uf, struct uft_argv *av,
			struct uft_symtab *mod, const char *name, bool ret,
			bool exact)
{
	size_t i;

	if (mod && !mod->dbg_loaded)
		uft_load_dbg(uf, mod);
	for (i = 0; mod && i < mod->ndbg; i++) {
		const struct uft_auto *a = &mod->dbg[i];

		if (a->name && !strcmp(a->name, name) &&
		    (ret ? a->rets : a->args))
			return uft_add_args(uf, av, ret ? a->rets : a->args,
					    exact);
	}
	for (i = 0; i < uf->nautos; i++) {
		const struct uft_auto *a = &uf->autos[i];

		if (!strcmp(a->name, name) && (ret ? a->rets : a->args))
			return uft_add_args(uf, av, ret ? a->rets : a->args,
					    exact);
	}
	return 0;
}

/* The argument and return value specs of a function, as recorded. */
static const struct uft_argv *uft_args_of(struct uftrace *uf,
					  struct uft_sym *sym,
					  struct uft_symtab *mod)
{
	struct uft_argv av = { 0 }, **n, *keep;
	size_t i;
	int ret = 0;

	if (sym->args)
		return sym->args;
	for (i = 0; i < uf->nspecs && !ret; i++) {
		const struct uft_pspec *ps = &uf->specs[i];
		bool exact = ps->patt == UFT_PATT_SIMPLE;
		size_t k;

		if (!uft_pspec_match(ps, sym->name))
			continue;
		for (k = 0; k < ps->args.n && !ret; k++)
			ret = uft_add_arg(&av, &ps->args.v[k], exact);
		if (!ret && ps->auto_arg)
			ret = uft_add_auto(uf, &av, mod, sym->name, false, exact);
		if (!ret && ps->auto_ret)
			ret = uft_add_auto(uf, &av, mod, sym->name, true, exact);
	}
	/* --auto-args: every known function, unless it has a spec already */
	if (!ret && uf->auto_args && !av.n) {
		ret = uft_add_auto(uf, &av, mod, sym->name, false, true);
		if (!ret)
			ret = uft_add_auto(uf, &av, mod, sym->name, true, true);
	}
	if (ret || !av.n) {
		free(av.v);
		if (ret)
			return NULL;
		sym->args = &uf->no_args;
		return sym->args;
	}
	keep = malloc(sizeof(*keep));
	n = realloc(uf->argvs, (uf->nargvs + 1) * sizeof(*n));
	if (!keep || !n) {
		free(keep);
		free(av.v);
		if (n)
			uf->argvs = n;
		return NULL;
	}
	*keep = av;
	uf->argvs = n;
	uf->argvs[uf->nargvs++] = keep;
	sym->args = keep;
	return keep;
}

/* ------------------------------------------------------------ task data */

/*
 * Have at least need bytes at t->pos (fewer only at the end of the file).
 * Returns the bytes available, or a negative errno (noted as a problem).
 */
static ssize_t uft_fill(struct uftrace *uf, struct uft_task *t, size_t need)
{
	struct stat st;

	/*
	 * Opened at the first read: a file that fits the buffer is read
	 * whole and closed at once, so only large ones hold a descriptor.
	 */
	if (t->fd < 0 && !t->eof && t->len - t->pos < need) {
		t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
		if (t->fd < 0) {
			int err = errno;

			/* a task that recorded nothing has no file */
			if (err != ENOENT)
				uft_problem(uf, "%s: cannot open: %s", t->path,
					    strerror(err));
			t->eof = true;
			return err == ENOENT ? 0 : -err;
		}
		if (fstat(t->fd, &st) == 0)
			t->fsize = (uint64_t)st.st_size;
	}
	while (t->len - t->pos < need && !t->eof) {
		ssize_t n;

		if (t->pos) {
			memmove(t->buf, t->buf + t->pos, t->len - t->pos);
			t->len -= t->pos;
			t->pos = 0;
		}
		if (need > t->cap || !t->buf) {
			size_t cap = need > UFT_BUF_SIZE ? need : UFT_BUF_SIZE;
			unsigned char *nb = realloc(t->buf, cap);

			if (!nb) {
				uf->nomem = true;
				return -ENOMEM;
			}
			t->buf = nb;
			t->cap = cap;
		}
		n = pread(t->fd, t->buf + t->len, t->cap - t->len,
			  (off_t)t->foff);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			uft_problem(uf, "%s: offset 0x%" PRIx64 ": cannot read: %s",
				    t->path, t->foff, strerror(err));
			return -err;
		}
		t->len += (size_t)n;
		t->foff += (uint64_t)n;
		if (n == 0 || t->foff >= t->fsize) {
			t->eof = true;
			close(t->fd);
			t->fd = -1;
		}
	}
	return (ssize_t)(t->len - t->pos);
}

static uint64_t uft_offset(const struct uft_task *t)
{
	return t->foff - (t->len - t->pos);
}

static void uft_task_finish(struct uft_task *t)
{
	t->done = true;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	free(t->buf);
	t->buf = NULL;
	t->cap = t->len = t->pos = 0;
}

/*
 * The size of the payload after the record at t->pos (the record itself
 * is in the buffer), or -1 with a problem noted.
 */
static int64_t uft_payload(struct uftrace *uf, struct uft_task *t,
			   const struct uft_rec *r, uint64_t off)
{
	const struct uft_argv *av;
	struct uft_symtab *mod;
	struct uft_sym *sym;
	uint64_t size = 0;
	ssize_t have;
	size_t i;
	bool any = false;

	if (r->type == UFT_EVENT) {
		have = uft_fill(uf, t, UFT_REC_SIZE + 2);
		if (have < 0)
			return -1;
		if (have < UFT_REC_SIZE + 2)
			goto truncated;
		size = uft_u16(uf, t->buf + t->pos + UFT_REC_SIZE);
		return (int64_t)UFT_ALIGN(size + 2, 8);
	}
	if (r->type == UFT_LOST) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": a lost-records record with a payload; the rest of task %" PRId64 " is skipped",
			    t->path, off, t->tid);
		return -1;
	}
	sym = uft_resolve(uf, t, r->ts, r->addr, &mod);
	if (!sym) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": the %s record of 0x%" PRIx64 " has %s, but no symbol tells their layout; the rest of task %" PRId64 " is skipped",
			    t->path, off, r->type == UFT_ENTRY ? "entry" : "exit",
			    r->addr,
			    r->type == UFT_ENTRY ? "arguments" : "a return value",
			    t->tid);
		return -1;
	}
	av = uft_args_of(uf, sym, mod);
	if (!av) {
		uf->nomem = true;
		return -1;
	}
	for (i = 0; i < av->n; i++) {
		const struct uft_arg *a = &av->v[i];

		if ((a->idx == UFT_RETVAL_IDX) != (r->type == UFT_EXIT))
			continue;
		any = true;
		if (a->str) {
			have = uft_fill(uf, t, UFT_REC_SIZE + size + 2);
			if (have < 0)
				return -1;
			if ((uint64_t)have < UFT_REC_SIZE + size + 2)
				goto truncated;
			size += UFT_ALIGN((uint64_t)uft_u16(uf, t->buf + t->pos +
							  UFT_REC_SIZE + size) + 2, 4);
		} else {
			size += UFT_ALIGN(a->size, 4);
		}
	}
	if (!any) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": the %s record of %s has %s, but the recording's argument specs give it none; the rest of task %" PRId64 " is skipped",
			    t->path, off, r->type == UFT_ENTRY ? "entry" : "exit",
			    sym->name,
			    r->type == UFT_ENTRY ? "arguments" : "a return value",
			    t->tid);
		return -1;
	}
	return (int64_t)UFT_ALIGN(size, 8);
truncated:
	uft_problem(uf, "%s: offset 0x%" PRIx64 ": truncated record payload",
		    t->path, off);
	return -1;
}

/*
 * Read the next record of t into t->rec. Returns 1, or 0 when the task has
 * no more records (at its end, or given up on after a noted problem).
 */
static int uft_task_advance(struct uftrace *uf, struct uft_task *t)
{
	const unsigned char *p;
	struct uft_rec r;
	uint64_t w, off;
	int64_t psize;
	ssize_t have;
	unsigned magic;

	if (t->done)
		return 0;
	have = t->len - t->pos >= UFT_REC_SIZE ? (ssize_t)(t->len - t->pos)
					       : uft_fill(uf, t, UFT_REC_SIZE);
	if (have < 0)
		goto fail;
	off = uft_offset(t);
	if (have == 0) {
		uft_task_finish(t);
		return 0;
	}
	if (have < UFT_REC_SIZE) {
		uft_problem(uf, "%s: offset 0x%" PRIx64 ": truncated record (%d bytes needed, %zd left)",
			    t->path, off, UFT_REC_SIZE, have);
		goto fail;
	}
	p = t->buf + t->pos;
	r.ts = uft_u64(uf, p);
	w = uft_u64(uf, p + 8);
	if (uf->swap) {
		/* big-endian bit fields start at the top */
		r.type = (uint8_t)(w >> 62);
		r.more = (w >> 61) & 1;
		magic = (unsigned)(w >> 58) & 7;
		r.depth = (uint32_t)(w >> 48) & 0x3ff;
		r.addr = w & UFT_ADDR_MASK;
	} else {
		r.type = w & 3;
		r.more = (w >> 2) & 1;
		magic = (unsigned)(w >> 3) & 7;
		r.depth = (uint32_t)(w >> 6) & 0x3ff;
		r.addr = w >> 16;
	}
	if (magic != UFT_REC_MAGIC) {
		uint64_t left = t->fsize > off ? t->fsize - off : 0;

		uft_problem(uf, "%s: offset 0x%" PRIx64 ": bad record magic %u (want %d); the rest of task %" PRId64 " (%" PRIu64 " bytes) is skipped",
			    t->path, off, magic, UFT_REC_MAGIC, t->tid, left);
		goto fail;
	}
	psize = 0;
	if (r.more) {
		psize = uft_payload(uf, t, &r, off);
		if (psize < 0)
			goto fail;
		have = uft_fill(uf, t, UFT_REC_SIZE + (size_t)psize);
		if (have < 0)
			goto fail;
		if ((uint64_t)have < UFT_REC_SIZE + (uint64_t)psize) {
			uft_problem(uf, "%s: offset 0x%" PRIx64 ": truncated record payload (%" PRId64 " bytes needed, %zd left)",
				    t->path, off + UFT_REC_SIZE, psize,
				    have - UFT_REC_SIZE);
			goto fail;
		}
	}
	/* libmcount stamps lost-records records with time 0 */
	if (r.type == UFT_LOST && r.ts < t->last_ts)
		r.ts = t->last_ts;
	t->last_ts = r.ts;
	t->pos += UFT_REC_SIZE + (size_t)psize;
	t->rec = r;
	return 1;
fail:
	/* the rest of this task is given up; the problem is noted */
	uft_task_finish(t);
	return 0;
}

/* ------------------------------------------------------------ the heap */

static inline bool uft_before(const struct uftrace *uf, uint32_t a, uint32_t b)
{
	const struct uft_task *x = &uf->tasks[a], *y = &uf->tasks[b];

	if (x->rec.ts != y->rec.ts)
		return x->rec.ts < y->rec.ts;
	return x->order < y->order;
}

static void uft_sift_down(struct uftrace *uf, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		uint32_t tmp;

		if (l < uf->nheap && uft_before(uf, uf->heap[l], uf->heap[m]))
			m = l;
		if (r < uf->nheap && uft_before(uf, uf->heap[r], uf->heap[m]))
			m = r;
		if (m == i)
			return;
		tmp = uf->heap[i];
		uf->heap[i] = uf->heap[m];
		uf->heap[m] = tmp;
		i = m;
	}
}

/* ------------------------------------------------------------ metadata */

static int uft_parse_tids(const char *s, int64_t **out, size_t *n)
{
	int64_t *v = NULL;
	size_t cnt = 0;

	while (*s) {
		char *end;
		long long tid;
		int64_t *nv;

		errno = 0;
		tid = strtoll(s, &end, 10);
		if (errno || end == s)
			break;
		nv = realloc(v, (cnt + 1) * sizeof(*nv));
		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		v = nv;
		v[cnt++] = tid;
		s = end;
		if (*s == ',')
			s++;
		else
			break;
	}
	*out = v;
	*n = cnt;
	return 0;
}

/* The info file. Header problems are fatal (diag); text problems are noted. */
static int uft_read_info(struct uftrace *uf, const char *name, int64_t **tids,
			 size_t *ntids, struct diag *d)
{
	/* the text sections info_mask announces, by bit (uftrace's order) */
	static const char *const sections[] = {
		"exename", "build_id", "exit_status", "cmdline", "cpuinfo",
		"meminfo", "osinfo", "taskinfo", "usageinfo", "loadinfo",
		"argspec", "record_date", "pattern_type", "uftrace_version",
		"utc_offset",
	};
	const char *argspec = NULL, *retspec = NULL, *argauto = NULL;
	const char *retauto = NULL;
	uint64_t announced, seen = 0;
	struct uft_lines it;
	size_t i;
	char *path, *buf = NULL, *line;
	size_t len;
	uint32_t version;
	uint16_t hsize;
	uint64_t feat;
	int ret;

	*tids = NULL;
	*ntids = 0;
	path = uft_path(uf, "info");
	if (!path)
		return -ENOMEM;
	ret = uft_read_file(path, &buf, &len);
	if (ret < 0) {
		diag_set(d, "%s: cannot read: %s", path, strerror(-ret));
		goto end;
	}
	ret = -EINVAL;
	if (len < UFT_HDR_MIN || memcmp(buf, UFT_MAGIC, 8)) {
		diag_set(d, "%s: offset 0x0: not a uftrace info header (%zu bytes; 40 with \"Ftrace!\" expected)",
			 path, len);
		goto end;
	}
	if (buf[14] != 1 && buf[14] != 2) {
		diag_set(d, "%s: offset 0xe: bad endian byte %u (1 little, 2 big)",
			 path, (unsigned char)buf[14]);
		goto end;
	}
	uf->swap = buf[14] == 2;
	if (buf[15] != 1 && buf[15] != 2) {
		diag_set(d, "%s: offset 0xf: bad ELF class %u (1 32-bit, 2 64-bit)",
			 path, (unsigned char)buf[15]);
		goto end;
	}
	uf->lp64 = buf[15] == 2;
	version = uft_u32(uf, buf + 8);
	if (version < 3 || version > 4) {
		diag_set(d, "%s: offset 0x8: unsupported version %" PRIu32 " (3 or 4)",
			 path, version);
		goto end;
	}
	hsize = uft_u16(uf, buf + 12);
	if (hsize < UFT_HDR_MIN || hsize > len) {
		diag_set(d, "%s: offset 0xc: bad header size %u (%d..%zu)",
			 path, hsize, UFT_HDR_MIN, len);
		goto end;
	}
	feat = uft_u64(uf, buf + 16);
	announced = uft_u64(uf, buf + 24);
	uf->rel_addr = feat & UFT_FEAT_SYM_REL_ADDR;
	uf->patt = UFT_PATT_REGEX;
	ret = 0;
	it = (struct uft_lines){ buf + hsize, buf + len, 0 };
	while ((line = uft_line(&it))) {
		char *colon = strchr(line, ':');
		const char *key = line, *val;

		if (!*line)
			continue;
		if (!colon) {
			uft_problem(uf, "%s: offset 0x%zx: not a 'key:value' line: %.40s",
				    path, (size_t)(line - buf), line);
			continue;
		}
		*colon = '\0';
		val = colon + 1;
		for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
			if (!strcmp(key, sections[i]))
				seen |= 1ull << i;
		if (!strcmp(key, "cmdline")) {
			free(uf->cmdline);
			uf->cmdline = strdup(val);
		} else if (!strcmp(key, "taskinfo") &&
			   !strncmp(val, "tids=", 5)) {
			free(*tids);
			ret = uft_parse_tids(val + 5, tids, ntids);
		} else if (!strcmp(key, "argspec") &&
			   strncmp(val, "lines=", 6)) {
			argspec = val;
		} else if (!strcmp(key, "retspec")) {
			retspec = val;
		} else if (!strcmp(key, "argauto")) {
			argauto = val;
		} else if (!strcmp(key, "retauto")) {
			retauto = val;
		} else if (!strcmp(key, "auto-args")) {
			uf->auto_args = !strcmp(val, "1");
		} else if (!strcmp(key, "pattern_type")) {
			if (!strcmp(val, "glob"))
				uf->patt = UFT_PATT_GLOB;
			else if (!strcmp(val, "simple"))
				uf->patt = UFT_PATT_SIMPLE;
			else
				uf->patt = UFT_PATT_REGEX;
		}
		if (ret < 0)
			break;
	}
	/* a cut or garbled info: sections its header promises are missing */
	for (i = 0; !ret && i < sizeof(sections) / sizeof(sections[0]); i++)
		if ((announced >> i & 1) && !(seen >> i & 1)) {
			uft_problem(uf, "%s: offset 0x%zx: no '%s' section, which the header announces (info_mask bit %zu)",
				    path, len, sections[i], i);
			break;
		}
	/* after the loop: pattern_type comes later in the file */
	if (!ret && argspec)
		ret = uft_parse_specs(uf, argspec, false);
	if (!ret && retspec)
		ret = uft_parse_specs(uf, retspec, true);
	if (!ret && argauto)
		ret = uft_parse_autos(uf, argauto, false);
	if (!ret && retauto)
		ret = uft_parse_autos(uf, retauto, true);
	if (ret == -ENOMEM)
		diag_set(d, "%s: out of memory", name);
end:
	free(buf);
	free(path);
	return ret;
}

static struct uft_session *uft_add_session(struct uftrace *uf)
{
	struct uft_session *n;

	n = realloc(uf->sess, (uf->nsess + 1) * sizeof(*n));
	if (!n)
		return NULL;
	uf->sess = n;
	n = &uf->sess[uf->nsess++];
	memset(n, 0, sizeof(*n));
	return n;
}

/* A task of task.txt: its pid and parent. */
struct uft_tinfo {
	int64_t tid;
	int64_t pid;
	int64_t ppid;
};

static int uft_tinfo_add(struct uft_tinfo **v, size_t *n, int64_t tid,
			 int64_t pid, int64_t ppid)
{
	struct uft_tinfo *nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].tid == tid)
			return 0;	/* an exec: the same task again */
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = (struct uft_tinfo){ tid, pid, ppid };
	(*n)++;
	return 0;
}

/* "WORD " with WORD four capitals: a task.txt line kind */
static bool uft_task_kind(const char *line)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!isupper((unsigned char)line[i]))
			return false;
	return line[4] == ' ';
}

/*
 * task.txt:
 *   SESS timestamp=S.NS pid=PID sid=SID exename="PATH"
 *   TASK timestamp=S.NS tid=TID pid=PID
 *   FORK timestamp=S.NS pid=CHILD ppid=PARENT
 *   DLOP timestamp=S.NS tid=TID sid=SID base=HEX libname="PATH"
 */
static int uft_read_tasks(struct uftrace *uf, struct uft_tinfo **tinfo,
			  size_t *ntinfo)
{
	struct uft_lines it;
	char *path, *buf, *line;
	size_t len;
	int ret;

	path = uft_path(uf, "task.txt");
	if (!path)
		return -ENOMEM;
	ret = uft_read_file(path, &buf, &len);
	if (ret < 0) {
		uft_problem(uf, "%s: cannot read: %s; pids, sessions and symbols are unknown",
			    path, strerror(-ret));
		free(path);
		return ret == -ENOMEM ? ret : 0;
	}
	it = (struct uft_lines){ buf, buf + len, 0 };
	ret = 0;
	while ((line = uft_line(&it)) && !ret) {
		const char *ts = uft_kv(line, "timestamp");
		const char *what = NULL;
		int64_t pid, tid, base;
		uint64_t time;
		bool bad = false;

		if (!*line)
			continue;
		if (!uft_task_kind(line)) {
			what = "SESS, TASK, FORK or DLOP";
		} else if (!ts || !uft_parse_time(ts, &time)) {
			what = "timestamp=";
		} else if (!strncmp(line, "SESS ", 5)) {
			struct uft_session *s;
			const char *sid = uft_kv(line, "sid");
			char sidbuf[64];
			size_t sl;

			if (!uft_kv_int(line, "pid", 10, &pid)) {
				what = "pid=";
			} else if (!sid || !(sl = strcspn(sid, " ")) ||
				   sl >= sizeof(sidbuf)) {
				what = "sid=";
			} else {
				s = uft_add_session(uf);
				if (!s) {
					ret = -ENOMEM;
					break;
				}
				memcpy(sidbuf, sid, sl);
				sidbuf[sl] = '\0';
				s->pid = pid;
				s->start = time;
				s->map = uft_sidmap(uf, sidbuf);
				s->exename = uft_kv_quoted(line, "exename", &bad);
				if (bad) {
					what = "exename=\"...\"";
					s->exename = strdup("");
				}
				if (!s->map || !s->exename) {
					ret = -ENOMEM;
					break;
				}
				s->comm = uft_basename(s->exename);
			}
		} else if (!strncmp(line, "TASK ", 5)) {
			if (!uft_kv_int(line, "tid", 10, &tid))
				what = "tid=";
			else if (!uft_kv_int(line, "pid", 10, &pid))
				what = "pid=";
			else
				ret = uft_tinfo_add(tinfo, ntinfo, tid, pid, 0);
		} else if (!strncmp(line, "FORK ", 5)) {
			int64_t ppid;

			if (!uft_kv_int(line, "pid", 10, &pid))
				what = "pid=";
			else if (!uft_kv_int(line, "ppid", 10, &ppid))
				what = "ppid=";
			else
				ret = uft_tinfo_add(tinfo, ntinfo, pid, pid, ppid);
		} else if (!strncmp(line, "DLOP ", 5)) {
			const char *sid = uft_kv(line, "sid");
			struct uft_session *s = NULL;
			struct uft_dlopen *n;
			char *lib;
			size_t i;

			if (!uft_kv_int(line, "base", 16, &base)) {
				what = "base=";
			} else if (!sid) {
				what = "sid=";
			} else if (!(lib = uft_kv_quoted(line, "libname", &bad))) {
				what = bad ? "libname=\"...\"" : NULL;
				if (!bad)
					ret = -ENOMEM;
			} else {
				size_t sl = strcspn(sid, " ");

				for (i = uf->nsess; i-- > 0;)
					if (uf->sess[i].map &&
					    strlen(uf->sess[i].map->sid) == sl &&
					    !strncmp(uf->sess[i].map->sid, sid, sl)) {
						s = &uf->sess[i];
						break;
					}
				if (!s) {
					what = "sid= of an earlier SESS";
				} else {
					n = realloc(s->dl, (s->ndl + 1) * sizeof(*n));
					if (!n) {
						ret = -ENOMEM;
					} else {
						s->dl = n;
						n[s->ndl].time = time;
						n[s->ndl].base = (uint64_t)base;
						n[s->ndl].mod = uft_module(uf, lib);
						if (!n[s->ndl].mod)
							ret = -ENOMEM;
						else
							s->ndl++;
					}
				}
				free(lib);
			}
		}
		/* other kinds of lines (later uftrace versions): ignored */
		if (what)
			uft_problem(uf, "%s:%u: cannot read this line (%s expected): %.60s",
				    path, it.lineno, what, line);
	}
	free(buf);
	free(path);
	return ret;
}

/* events.txt: "EVENT: ID PROVIDER:NAME" */
static int uft_read_events(struct uftrace *uf)
{
	struct uft_lines it;
	char *path, *buf, *line;
	size_t len;
	int ret;

	path = uft_path(uf, "events.txt");
	if (!path)
		return -ENOMEM;
	ret = uft_read_file(path, &buf, &len);
	free(path);
	if (ret < 0)
		return ret == -ENOMEM ? ret : 0;
	it = (struct uft_lines){ buf, buf + len, 0 };
	while ((line = uft_line(&it))) {
		struct uft_evname *n;
		unsigned id;
		int off = 0;

		if (strncmp(line, "EVENT", 5) ||
		    sscanf(line + 5, ": %u %n", &id, &off) < 1 || !off ||
		    !strchr(line + 5 + off, ':'))
			continue;
		n = realloc(uf->evnames, (uf->nevnames + 1) * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
			break;
		}
		uf->evnames = n;
		n[uf->nevnames].id = id;
		n[uf->nevnames].name = strdup(line + 5 + off);
		if (!n[uf->nevnames].name) {
			ret = -ENOMEM;
			break;
		}
		uf->nevnames++;
	}
	free(buf);
	return ret;
}

static int uft_tid_cmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Every NUMBER.dat of the directory, when no list of tasks says which. */
static int uft_scan_tids(struct uftrace *uf, int64_t **tids, size_t *ntids)
{
	struct dirent *de;
	DIR *dir = opendir(uf->dir);
	int ret = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char *end;
		long long tid;
		int64_t *n;

		errno = 0;
		tid = strtoll(de->d_name, &end, 10);
		if (errno || end == de->d_name || strcmp(end, ".dat"))
			continue;
		n = realloc(*tids, (*ntids + 1) * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
			break;
		}
		*tids = n;
		n[(*ntids)++] = tid;
	}
	closedir(dir);
	return ret;
}

/* "cpuN" (or "cpuN LEVEL") with tid (N + 1) * 100 + LEVEL: QEMU's plugin. */
static bool uft_qemu_cpu(const struct uft_session *s, int64_t tid,
			 uint32_t *cpu)
{
	unsigned long n;
	char *end;

	if (!s || strncmp(s->exename, "cpu", 3) ||
	    !isdigit((unsigned char)s->exename[3]))
		return false;
	n = strtoul(s->exename + 3, &end, 10);
	if ((*end && *end != ' ') || tid < (int64_t)(n + 1) * 100 ||
	    tid >= (int64_t)(n + 2) * 100)
		return false;
	*cpu = (uint32_t)n;
	return true;
}

static int uft_setup_tasks(struct uftrace *uf, int64_t *tids, size_t ntids,
			   const struct uft_tinfo *ti, size_t nti)
{
	size_t i, j, n = 0;
	bool all_qemu = true;

	if (ntids)	/* tids may be NULL: qsort() wants a valid pointer */
		qsort(tids, ntids, sizeof(*tids), uft_tid_cmp);
	uf->tasks = calloc(ntids ? ntids : 1, sizeof(*uf->tasks));
	uf->heap = calloc(ntids ? ntids : 1, sizeof(*uf->heap));
	if (!uf->tasks || !uf->heap)
		return -ENOMEM;
	for (i = 0; i < ntids; i++) {
		struct uft_task *t = &uf->tasks[n];
		char name[32];

		if (i && tids[i] == tids[i - 1])
			continue;
		t->tid = tids[i];
		t->pid = tids[i];
		t->fd = -1;
		t->tid_len = (uint8_t)snprintf(t->tid_text, sizeof(t->tid_text),
					       "%5" PRId64, t->tid);
		t->resync = true;
		for (j = 0; j < nti; j++)
			if (ti[j].tid == t->tid) {
				t->pid = ti[j].pid;
				t->ppid = ti[j].ppid;
			}
		snprintf(name, sizeof(name), "%" PRId64 ".dat", t->tid);
		t->path = uft_path(uf, name);
		if (!t->path)
			return -ENOMEM;
		t->order = (uint32_t)n;
		n++;
	}
	uf->ntasks = n;
	for (i = 0; i < n; i++) {
		struct uft_task *t = &uf->tasks[i];
		const struct uft_session *s = uft_task_session(uf, t, 0);

		t->has_vcpu = uft_qemu_cpu(s, t->tid, &t->cpu);
		all_qemu &= t->has_vcpu;
	}
	if (n && all_qemu && uf->writer == UFT_WRITER_UFTRACE)
		uf->writer = UFT_WRITER_QEMU;
	return 0;
}

/* ------------------------------------------------------------ source ops */

static const char *const uft_type_names[UFT_NTYPES] = {
	"entry", "exit", "lost", "event",
};

static bool uft_probe(const char *path, const unsigned char *head, size_t len,
		      bool is_dir)
{
	/* source_detect() checked the "Ftrace!" magic of DIR/info */
	return is_dir;
}

static void uft_close(struct source *src);

static int uft_open(struct source *src, const char *path, struct diag *d)
{
	struct uft_tinfo *tinfo = NULL;
	struct uftrace *uf;
	int64_t *tids = NULL;
	size_t ntids = 0, ntinfo = 0, len, i;
	int ret;

	if (!path) {
		diag_set(d, "uftrace data is a directory; it cannot come from standard input");
		return -EINVAL;
	}
	uf = calloc(1, sizeof(*uf));
	if (uf)
		uf->sec_key = UINT64_MAX;
	if (!uf)
		goto nomem;
	src->priv = uf;
	uf->dir = strdup(path);
	if (!uf->dir)
		goto nomem;
	len = strlen(uf->dir);
	while (len > 1 && uf->dir[len - 1] == '/')
		uf->dir[--len] = '\0';
	for (i = 0; i < UFT_NTYPES; i++) {
		uf->types[i].index = (uint32_t)i;
		uf->types[i].system = "uftrace";
		uf->types[i].name = uft_type_names[i];
	}
	src->ntypes = UFT_NTYPES;

	ret = uft_read_info(uf, src->name, &tids, &ntids, d);
	if (ret < 0)
		goto error;
	if (uf->cmdline && !strcmp(uf->cmdline, "fakeuftrace"))
		uf->writer = UFT_WRITER_RFTRACE;
	ret = uft_read_tasks(uf, &tinfo, &ntinfo);
	if (ret == 0)
		ret = uft_read_events(uf);
	if (ret < 0)
		goto nomem;
	if (!tids) {
		/* no taskinfo in info: the tasks of task.txt, else the files */
		for (i = 0; i < ntinfo; i++) {
			int64_t *n = realloc(tids, (ntids + 1) * sizeof(*n));

			if (!n)
				goto nomem;
			tids = n;
			tids[ntids++] = tinfo[i].tid;
		}
		if (!ntids && uft_scan_tids(uf, &tids, &ntids) < 0)
			goto nomem;
	}
	ret = uft_setup_tasks(uf, tids, ntids, tinfo, ntinfo);
	if (ret < 0)
		goto nomem;
	/* rftrace stamps the guest's raw TSC; the others nanoseconds */
	src->clock = uf->writer == UFT_WRITER_RFTRACE ? CLOCK_TSC : CLOCK_NS;

	/* the first record of every task */
	for (i = 0; i < uf->ntasks; i++)
		if (uft_task_advance(uf, &uf->tasks[i]))
			uf->heap[uf->nheap++] = (uint32_t)i;
	for (i = uf->nheap / 2; i-- > 0;)
		uft_sift_down(uf, i);
	free(tids);
	free(tinfo);
	return 0;
nomem:
	diag_set(d, "%s: out of memory", src->name);
	ret = -ENOMEM;
error:
	free(tids);
	free(tinfo);
	uft_close(src);
	return ret;
}

static void uft_close(struct source *src)
{
	struct uftrace *uf = src->priv;
	size_t i, j;

	if (!uf)
		return;
	for (i = 0; i < uf->ntasks; i++) {
		struct uft_task *t = &uf->tasks[i];

		if (t->fd >= 0)
			close(t->fd);
		free(t->buf);
		free(t->path);
		free(t->stack);
	}
	free(uf->tasks);
	free(uf->heap);
	for (i = 0; i < uf->nspecs; i++) {
		if (uf->specs[i].patt == UFT_PATT_REGEX)
			regfree(&uf->specs[i].re);
		free(uf->specs[i].pattern);
		free(uf->specs[i].args.v);
	}
	free(uf->specs);
	for (i = 0; i < uf->nautos; i++) {
		free(uf->autos[i].name);
		free(uf->autos[i].args);
		free(uf->autos[i].rets);
	}
	free(uf->autos);
	for (i = 0; i < uf->nmods; i++) {
		struct uft_symtab *st = uf->mods[i];

		for (j = 0; j < st->ndbg; j++) {
			free(st->dbg[j].name);
			free(st->dbg[j].args);
			free(st->dbg[j].rets);
		}
		free(st->dbg);
		free(st->v);
		free(st->pool);
		free(st->name);
		free(st);
	}
	free(uf->mods);
	for (i = 0; i < uf->nsidmaps; i++) {
		free(uf->sidmaps[i]->v);
		free(uf->sidmaps[i]->sid);
		free(uf->sidmaps[i]);
	}
	free(uf->sidmaps);
	for (i = 0; i < uf->nsess; i++) {
		free(uf->sess[i].exename);
		free(uf->sess[i].dl);
	}
	free(uf->sess);
	for (i = 0; i < uf->nevnames; i++)
		free(uf->evnames[i].name);
	free(uf->evnames);
	for (i = 0; i < uf->nargvs; i++) {
		free(uf->argvs[i]->v);
		free(uf->argvs[i]);
	}
	free(uf->argvs);
	for (i = 0; i < uf->nproblems; i++)
		free(uf->problems[i]);
	free(uf->problems);
	free(uf->cmdline);
	free(uf->dir);
	free(uf);
	src->priv = NULL;
}

static int uft_push(struct uft_task *t, uint64_t addr, uint64_t ts)
{
	if (t->depth == t->stack_cap) {
		size_t cap = t->stack_cap ? t->stack_cap * 2 : 64;
		struct uft_frame *n = realloc(t->stack, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->stack = n;
		t->stack_cap = cap;
	}
	t->stack[t->depth].addr = addr;
	t->stack[t->depth].ts = ts;
	t->depth++;
	return 0;
}

/*
 * Follow the call stack of t through record r: the depth of an entry is
 * the number of frames below it; an exit pops its frame (and any frames
 * above it whose exits were never seen) and knows its duration.
 */
static int uft_track(struct uftrace *uf, struct uft_task *t,
		     const struct uft_rec *r, struct uft_cur *c)
{
	const struct uft_session *sess;
	size_t i, found, unknown;

	c->duration = 0;
	if (r->type == UFT_LOST) {
		t->resync = true;
		c->depth = r->depth;
		return 0;
	}
	if (r->type == UFT_EVENT) {
		c->depth = r->depth;
		return 0;
	}
	/* an exec starts a new session, and the new program its own stack */
	sess = uft_task_session(uf, t, r->ts);
	if (t->stack_sess && sess != t->stack_sess)
		t->resync = true;
	t->stack_sess = sess;
	if (t->resync) {
		/*
		 * The data starts (or restarts after lost records) inside
		 * calls we never saw: uftrace's own depth says how deep, and
		 * which of the frames we had still hold. The other writers'
		 * depths are not to be trusted: start from nothing.
		 */
		t->resync = false;
		if (uf->writer == UFT_WRITER_UFTRACE) {
			size_t want = r->depth + (r->type == UFT_EXIT);
			size_t keep = t->depth < r->depth ? t->depth : r->depth;

			if (r->type == UFT_EXIT && t->depth > r->depth &&
			    t->stack[r->depth].addr == r->addr)
				keep = want;
			t->depth = keep;
			while (t->depth < want)
				if (uft_push(t, UFT_NO_ADDR, 0) < 0)
					return -ENOMEM;
		} else {
			t->depth = 0;
		}
	}
	if (r->type == UFT_ENTRY) {
		c->depth = t->depth;
		return uft_push(t, r->addr, r->ts);
	}
	/*
	 * exit: its frame is the top, or further down if exits were lost;
	 * else the topmost frame entered before the data began
	 */
	found = SIZE_MAX;
	unknown = SIZE_MAX;
	for (i = t->depth; i-- > 0;) {
		if (t->stack[i].addr == r->addr) {
			found = i;
			break;
		}
		if (t->stack[i].addr == UFT_NO_ADDR && unknown == SIZE_MAX)
			unknown = i;
	}
	i = found != SIZE_MAX ? found : unknown;
	if (i == SIZE_MAX) {
		/* an exit we never saw enter, below all we know */
		t->depth = 0;
		c->depth = 0;
		return 0;
	}
	c->depth = i;
	if (t->stack[i].addr != UFT_NO_ADDR && r->ts >= t->stack[i].ts)
		c->duration = r->ts - t->stack[i].ts;
	t->depth = i;
	return 0;
}

static const char *uft_event_name(const struct uftrace *uf, uint64_t id,
				  char *buf, size_t len)
{
	static const char *const builtin[] = {
		NULL, "read:proc/statm", "read:page-fault", "diff:proc/statm",
		"diff:page-fault", "read:pmu-cycle", "diff:pmu-cycle",
		"read:pmu-cache", "diff:pmu-cache", "read:pmu-branch",
		"diff:pmu-branch", "watch:cpu", "watch:addr", "watch:var",
	};
	static const char *const perf[] = {
		NULL, "sched-in", "sched-out", "schedule", "task-new",
		"task-exit", "task-name", "sched-out (pre-empted)",
		"schedule (pre-empted)",
	};
	size_t i;

	if (id == UFT_EVENT_EXTERN)
		return "external-data";
	if (id >= UFT_EVENT_USER) {
		for (i = 0; i < uf->nevnames; i++)
			if (uf->evnames[i].id == id)
				return uf->evnames[i].name;
		snprintf(buf, len, "user_event:%" PRIu64, id);
	} else if (id >= UFT_EVENT_PERF) {
		i = (size_t)(id - UFT_EVENT_PERF);
		snprintf(buf, len, "linux:%s",
			 i < sizeof(perf) / sizeof(perf[0]) && perf[i] ? perf[i]
								       : "unknown");
	} else if (id >= UFT_EVENT_BUILTIN) {
		i = (size_t)(id - UFT_EVENT_BUILTIN);
		if (i < sizeof(builtin) / sizeof(builtin[0]) && builtin[i])
			return builtin[i];
		snprintf(buf, len, "builtin_event:%" PRIu64, id);
	} else {
		snprintf(buf, len, "kernel_event:%" PRIu64, id);
	}
	return buf;
}

/* All problems as one message: the first, then one per line. */
static int uft_report(struct source *src, struct uftrace *uf, struct diag *d)
{
	size_t i;

	uf->reported = true;
	if (!uf->nproblems) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	diag_set(d, "%s", uf->problems[0]);
	for (i = 1; i < uf->nproblems; i++) {
		size_t before = d->len;

		diag_add(d, "\n  %s", uf->problems[i]);
		if (d->len >= sizeof(d->msg) - 1) {
			d->len = before;
			d->msg[before] = '\0';
			diag_add(d, "\n  (%zu more problems in %s)",
				 uf->nproblems - i, src->name);
			break;
		}
	}
	if (uf->nomem)
		diag_add(d, "\n  %s: out of memory: some problems were not noted",
			 src->name);
	return -EIO;
}

static int uft_next(struct source *src, struct event *ev, struct diag *d)
{
	struct uftrace *uf = src->priv;
	struct uft_cur *c = &uf->cur;
	const struct uft_session *sess;
	struct uft_task *t;
	struct uft_symtab *mod;
	struct uft_sym *sym;
	uint32_t ti;

	if (!uf->nheap) {
		if (!uf->reported && (uf->nproblems || uf->nomem))
			return uft_report(src, uf, d);
		return 0;
	}
	ti = uf->heap[0];
	t = &uf->tasks[ti];
	c->task = t;
	c->rec = t->rec;
	if (uft_track(uf, t, &t->rec, c) < 0) {
		diag_set(d, "%s: out of memory", src->name);
		return -ENOMEM;
	}
	c->resolved = false;
	c->comm = NULL;
	c->symbol = c->buf;
	switch (c->rec.type) {
	case UFT_ENTRY:
	case UFT_EXIT:
		sym = uft_resolve(uf, t, c->rec.ts, c->rec.addr, &mod);
		if (sym) {
			c->symbol = sym->name;
			c->symlen = sym->namelen;
			c->resolved = true;
		} else {
			c->symlen = (size_t)snprintf(c->buf, sizeof(c->buf),
						     "0x%" PRIx64, c->rec.addr);
		}
		break;
	case UFT_EVENT:
		c->symbol = uft_event_name(uf, c->rec.addr, c->buf,
					   sizeof(c->buf));
		c->symlen = strlen(c->symbol);
		c->resolved = true;
		break;
	default:
		c->symlen = (size_t)snprintf(c->buf, sizeof(c->buf),
					     "0x%" PRIx64, c->rec.addr);
		break;
	}
	sess = uft_task_session(uf, t, c->rec.ts);
	if (sess)
		c->comm = sess->comm;

	ev->ts = c->rec.ts;
	ev->raw_ts = c->rec.ts;
	ev->has_ts = true;
	ev->seq = uf->seq++;
	ev->cpu = t->cpu;
	ev->has_vcpu = t->has_vcpu;
	ev->vcpu = t->cpu;
	ev->pid = t->pid;
	ev->type = &uf->types[c->rec.type];
	ev->src = src;
	ev->rec = c;

	/* the task's next record takes its place */
	if (!uft_task_advance(uf, t))
		uf->heap[0] = uf->heap[--uf->nheap];
	if (uf->nheap > 1)
		uft_sift_down(uf, 0);
	return 1;
}

enum uft_field {
	UF_TID = 0,
	UF_TYPE,
	UF_DEPTH,
	UF_ADDR,
	UF_SYMBOL,
	UF_DURATION,
	UF_EVENT,
	UF_COMM,
	UF_RECORD_DEPTH,
	UF_NFIELDS,
};

static const char *const uft_field_names[UF_NFIELDS] = {
	"tid", "type", "depth", "addr", "symbol", "duration", "event",
	"comm", "record_depth",
};

static int uft_bind(struct source *src, const struct event_type *t,
		    const char *key)
{
	size_t i;

	for (i = 0; i < UF_NFIELDS; i++)
		if (!strcmp(uft_field_names[i], key))
			return (int)i;
	return -ENOENT;
}

static int uft_field(struct source *src, const struct event *ev, int index,
		     struct value *out)
{
	const struct uft_cur *c = ev->rec;

	switch (index) {
	case UF_TID:
		value_set_s64(out, c->task->tid);
		return 0;
	case UF_TYPE:
		value_set_str(out, uft_type_names[c->rec.type],
			      strlen(uft_type_names[c->rec.type]));
		return 0;
	case UF_DEPTH:
		value_set_u64(out, c->depth);
		return 0;
	case UF_ADDR:
		value_set_u64(out, c->rec.addr);
		return 0;
	case UF_SYMBOL:
		value_set_str(out, c->symbol, c->symlen);
		return 0;
	case UF_DURATION:
		value_set_u64(out, c->duration);
		return 0;
	case UF_EVENT:
		if (c->rec.type == UFT_EVENT)
			value_set_str(out, c->symbol, c->symlen);
		else
			value_set_str(out, "", 0);
		return 0;
	case UF_COMM:
		if (c->comm)
			value_set_str(out, c->comm, strlen(c->comm));
		else
			value_set_str(out, "", 0);
		return 0;
	case UF_RECORD_DEPTH:
		value_set_u64(out, c->rec.depth);
		return 0;
	}
	return -ENOENT;
}

static int uft_each_type(struct source *src,
			 int (*fn)(const struct event_type *t, void *arg),
			 void *arg)
{
	struct uftrace *uf = src->priv;
	size_t i;
	int ret;

	for (i = 0; i < UFT_NTYPES; i++) {
		ret = fn(&uf->types[i], arg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static size_t uft_fields(struct source *src, const struct event_type *t,
			 const char **names, size_t max)
{
	size_t i;

	for (i = 0; i < UF_NFIELDS && i < max; i++)
		names[i] = uft_field_names[i];
	return i;
}

/* Decimal digits at p, exactly as many as needed. */
static size_t uft_dec(char *p, uint64_t v)
{
	return pyfmt_u64_dec(p, v);
}

/*
 * n bytes from s to p. Names are short: fixed-size copies that overlap
 * (and read nothing outside s[0..n)) beat a call to memcpy.
 */
static inline void uft_copy_name(char *p, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t x, y;

	if (n >= 8 && n <= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + n - 8, &b, 8);
	} else if (n > 16) {
		memcpy(p, s, n);
	} else if (n >= 4) {
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		memcpy(p, &x, 4);
		memcpy(p + n - 4, &y, 4);
	} else {
		while (n--)
			*p++ = *s++;
	}
}

/* Hex digits at p; may write 8 bytes past them (the line has slack). */
static size_t uft_hex(char *p, uint64_t v)
{
	return pyfmt_hex_put(p, v);
}

/*
 * As `uftrace dump` prints a record (cmds/dump.c, without the hex dump
 * and the argument lines):
 *
 *   2639.490006229  15691: [entry] main(55831f624285) depth: 0
 *
 * with "<ADDR>" for a function without symbol, the event name for events,
 * and the depth of the call stack (for events and lost records: as
 * written).
 */
static int uft_render_default(struct source *src, const struct event *ev,
			      struct outbuf *o)
{
	static const char *const tag[UFT_NTYPES] = {
		"entry", "exit ", "lost ", "event",
	};
	struct uftrace *uf = src->priv;
	const struct uft_cur *c = ev->rec;
	const struct uft_task *t = c->task;
	uint64_t sec = ev->raw_ts / 1000000000u;
	uint32_t ns = (uint32_t)(ev->raw_ts - sec * 1000000000u);
	char *p, *start;

	/* 40 bytes of slack for the fixed-size copies of numbers */
	p = outbuf_reserve(o, 96 + c->symlen + 40 + 40);
	if (!p)
		return -ENOMEM;
	start = p;
	/* "%d.%09d": the seconds change seldom from line to line */
	if (sec != uf->sec_key) {
		uf->sec_len = uft_dec(uf->sec_text, sec);
		uf->sec_text[uf->sec_len++] = '.';
		uf->sec_key = sec;
	}
	uft_copy_name(p, uf->sec_text, uf->sec_len);
	p += uf->sec_len;
	*p++ = (char)('0' + ns / 100000000u);
	pyfmt_dec8(p, ns % 100000000u);
	p += 8;
	memcpy(p, "  ", 2);
	p += 2;
	uft_copy_name(p, t->tid_text, t->tid_len);	/* "%5d" */
	p += t->tid_len;
	memcpy(p, ": [", 3);
	p += 3;
	memcpy(p, tag[c->rec.type], 5);
	p += 5;
	memcpy(p, "] ", 2);
	p += 2;
	if (c->resolved) {
		uft_copy_name(p, c->symbol, c->symlen);
		p += c->symlen;
	} else {
		*p++ = '<';
		p += uft_hex(p, c->rec.addr);
		*p++ = '>';
	}
	*p++ = '(';
	p += uft_hex(p, c->rec.addr);
	memcpy(p, ") depth: ", 9);
	p += 9;
	if (c->depth < 10) {
		*p++ = (char)('0' + c->depth);
	} else if (c->depth < 100) {
		memcpy(p, pyfmt_dig2 + 2 * c->depth, 2);
		p += 2;
	} else {
		p += uft_dec(p, c->depth);
	}
	*p++ = '\n';
	outbuf_commit(o, (size_t)(p - start));
	return 0;
}

const struct source_ops source_uftrace_ops = {
	.kind = "uftrace",
	.probe = uft_probe,
	.open = uft_open,
	.next = uft_next,
	.close = uft_close,
	.bind = uft_bind,
	.field = uft_field,
	.each_type = uft_each_type,
	.fields = uft_fields,
	.render_default = uft_render_default,
};
