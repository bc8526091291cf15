// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace: sessions, memory maps (sid-SID.map), symbol tables (NAME.sym),
 * and the name of an address in a task at a time.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uftrace-demangle.h"
#include "uftrace-int.h"
#include "uftrace-walk.h"

/* ------------------------------------------------------------ symbols */

static int uft_sym_cmp(const void *a, const void *b)
{
	const struct uft_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

bool uft_sym_end_name(const char *name)
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

static bool uft_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

/*
 * The simple form of a demangled C++ name, as `uftrace dump` prints it:
 * without template arguments ("std::vector<int>::push_back" ->
 * "std::vector::push_back"), keeping operator names ("operator<<"). Also
 * written for Rust paths ("core::mem::drop::<u8>" -> "core::mem::drop",
 * "<ktf::Square as ktf::Shape>::area" kept, "<ktf::Square>::new" ->
 * "ktf::Square::new"). malloc'd or NULL.
 */
char *uft_simplify(const char *s)
{
	/* operator tokens, longest first */
	static const char *const ops[] = {
		"<<=", ">>=", "->*", "<=>", "()", "[]", "<<", ">>", "<=", ">=",
		"==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=",
		"%=", "&=", "|=", "^=", "->", ",", "<", ">", "+", "-", "*", "/",
		"%", "&", "|", "^", "~", "!", "=",
	};
	size_t len = strlen(s), i = 0, depth, k, nkept = 0;
	bool kept[16];
	char *out = malloc(len + 1), *o = out;

	if (!out)
		return NULL;
	while (i < len) {
		char c = s[i];

		if (!strncmp(s + i, "operator", 8) &&
		    (o == out || !uft_ident(o[-1])) && !uft_ident(s[i + 8])) {
			memcpy(o, "operator", 8);
			o += 8;
			i += 8;
			for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
				size_t n = strlen(ops[k]);

				if (!strncmp(s + i, ops[k], n)) {
					memcpy(o, ops[k], n);
					o += n;
					i += n;
					break;
				}
			}
			continue;
		}
		if (c == '<' && (o == out || o[-1] == '<')) {
			/* Rust's <T as Trait>, kept; <T> alone: T */
			bool as = false;

			for (depth = 0, k = i; k < len; k++) {
				if (s[k] == '<')
					depth++;
				else if (s[k] == '>' && s[k - 1] != '-' && !--depth)
					break;
				else if (depth == 1 && !strncmp(s + k, " as ", 4))
					as = true;
			}
			if (nkept < sizeof(kept))
				kept[nkept] = as;
			nkept++;
			if (as)
				*o++ = c;
			i++;
			continue;
		}
		if (c == '>' && nkept && (i == 0 || s[i - 1] != '-')) {
			nkept--;
			if (nkept >= sizeof(kept) || kept[nkept])
				*o++ = c;
			i++;
			continue;
		}
		if (c == '<') {
			/* template arguments or generics: skip them */
			if (o - out >= 2 && o[-1] == ':' && o[-2] == ':')
				o -= 2;	/* Rust's "::<T>" */
			while (o > out && o[-1] == ' ')
				o--;	/* "operator< <int>" */
			for (depth = 0; i < len; i++) {
				if (s[i] == '<')
					depth++;
				else if (s[i] == '>' && s[i - 1] != '-' && !--depth)
					break;
			}
			i++;
			continue;
		}
		*o++ = c;
		i++;
	}
	*o = '\0';
	return out;
}

/* Rust's legacy mangling: _ZN...17h<16 hex digits>E, maybe ".suffix" */
static bool uft_rust_legacy(const char *raw)
{
	const char *p = raw;
	size_t i;

	if (strncmp(raw, "_ZN", 3))
		return false;
	while ((p = strstr(p + 1, "17h"))) {
		for (i = 3; i < 19 && isxdigit((unsigned char)p[i]); i++)
			;
		if (i == 19 && p[19] == 'E' && (!p[20] || p[20] == '.'))
			return true;
	}
	return false;
}

/*
 * The simple form of a mangled name as uftrace 0.13's own demangler
 * writes it, malloc'd, or NULL (not mangled): C++ and Rust v0 without
 * template arguments or generics (libiberty's text respelt); Rust legacy
 * names by our own reading (uftrace-names.c), their generic parameters
 * kept ("core::ptr::NonNull<T>::new", "_<&T as core..fmt..Debug>::fmt";
 * v0 names carry the instances instead, which can be pages long).
 */
char *uft_simple_name(const char *raw)
{
	static const char sub_i[] = "_GLOBAL__sub_I_";
	char *d, *spelt, *simple, *inh, *inner;
	const char *tag = "";
	size_t skip;
	long cast;
	int ctor;

	/* a static initializer: its function's name after the prefix */
	if (!strncmp(raw, sub_i, sizeof(sub_i) - 1) &&
	    raw[sizeof(sub_i) - 1] == '_' && raw[sizeof(sub_i)] == 'Z') {
		inner = uft_simple_name(raw + sizeof(sub_i) - 1);
		skip = inner ? strlen(inner) : 0;
		d = inner ? malloc(sizeof(sub_i) + skip) : NULL;
		if (d) {
			memcpy(d, sub_i, sizeof(sub_i) - 1);
			memcpy(d + sizeof(sub_i) - 1, inner, skip + 1);
		}
		free(inner);
		return d;
	}
	/* a thunk or a transaction clone: the function's own name */
	skip = uft_special_inner(raw);
	if (skip) {
		if (asprintf(&inner, "_Z%s", raw + skip) < 0)
			return NULL;
		d = uft_simple_name(inner);
		free(inner);
		return d;
	}
	if (uft_rust_legacy(raw))
		return uft_rust_legacy_name(raw);
	d = uft_demangle_raw(raw, false);
	if (!d)
		return NULL;
	ctor = uft_ctor_dtor(d);
	/* a conversion operator: "operator(cast)", its type left out */
	cast = uft_cast_operator(d, &tag);
	if (cast >= 0) {
		char *head = strndup(d, (size_t)cast), *t;

		t = strdup(tag);
		free(d);
		d = head;
		tag = t;
		if (!head || !t)
			goto nomem;
	}
	/* uftrace's own spelling, then without template arguments */
	spelt = uft_dump_spelling(raw, d);
	free(d);
	if (!spelt)
		goto nomem;
	simple = uft_simplify(spelt);
	free(spelt);
	if (simple && cast >= 0) {
		spelt = simple;
		if (asprintf(&simple, "%soperator(cast)%s%.*s", spelt,
			     *tag ? "::" : "",
			     *tag ? (int)strlen(tag) - 6 : 0, tag + (*tag ? 5 : 0)) < 0)
			simple = NULL;
		free(spelt);
	}
	if (cast >= 0)
		free((char *)tag);
	if (!simple)
		return NULL;
	simple = uft_std_spelling(raw, simple);
	if (ctor && cast < 0)
		return uft_ctor_repeat(simple, ctor);
	inh = uft_inheriting_name(raw, simple);
	if (inh) {
		free(simple);
		simple = inh;
	}
	return simple;
nomem:
	if (cast >= 0)
		free((char *)tag);
	return NULL;
}

/* Names of a symbol: once, at load; sname for specs, name as printed. */
static void uft_name_sym(struct uftrace *uf, struct uft_sym *sym)
{
	char *simple = uft_simple_name(sym->raw), *full;

	if (simple) {
		sym->sname = simple;
		sym->own |= UFT_OWN_SNAME;
		if (uf->demangle == SOURCE_DEMANGLE_SIMPLE)
			sym->name = simple;
	}
	if (uf->demangle == SOURCE_DEMANGLE_FULL) {
		full = uft_demangle_raw(sym->raw, true);
		if (full) {
			sym->name = full;
			sym->own |= UFT_OWN_NAME;
		}
	}
	sym->namelen = (uint32_t)strlen(sym->name);
	sym->fixup = (uint8_t)uft_dd_fixup(sym->sname);
}

void uft_free_symtab(struct uft_symtab *st)
{
	size_t i;

	for (i = 0; i < st->n; i++) {
		if (st->v[i].own & UFT_OWN_NAME)
			free((char *)st->v[i].name);
		if (st->v[i].own & UFT_OWN_SNAME)
			free((char *)st->v[i].sname);
	}
	for (i = 0; i < st->ndbg; i++) {
		free(st->dbg[i].name);
		free(st->dbg[i].args);
		free(st->dbg[i].rets);
	}
	free(st->dbg);
	uft_enums_free(&st->enums);
	free(st->v);
	free(st->pool);
	free(st->name);
	free(st);
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
	char *path, *line;
	size_t len, cap = 0, i;
	int ret;

	st->loaded = true;
	path = uft_pathf(uf, st->bare ? "%s" : "%s.sym", st->name);
	if (!path)
		return;
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
					 .sname = p, .raw = p, .type = type };
		if (st->n > 1 && !sym[-1].size)
			sym[-1].size = addr - sym[-1].addr;
	}
	if (bad)
		uft_problem(uf, "%s:%u: not a symbol line (ADDR [SIZE] TYPE NAME)%s",
			    path, first_bad,
			    bad > 1 ? "; more such lines follow" : "");
	if (st->n)
		qsort(st->v, st->n, sizeof(*st->v), uft_sym_cmp);
	for (i = 0; i < st->n; i++)
		uft_name_sym(uf, &st->v[i]);
	free(path);
}

struct uft_sym *uft_find_sym(struct uftrace *uf, struct uft_symtab *st,
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

static const char *uft_mod_key(const void *val)
{
	return ((const struct uft_symtab *)val)->name;
}

/* The module of a path (by its base name), made at the first mention. */
struct uft_symtab *uft_module(struct uftrace *uf, const char *path)
{
	const char *base = uft_basename(path);
	struct uft_symtab *st;

	st = uft_hash_find(&uf->mod_hash, base, strlen(base), uft_mod_key);
	if (st)
		return st;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->name = strdup(base);
	if (!st->name || uft_grow(&uf->mods, uf->nmods, sizeof(*uf->mods)) ||
	    uft_hash_add(&uf->mod_hash, st, uft_mod_key)) {
		free(st->name);
		free(st);
		return NULL;
	}
	uf->mods[uf->nmods++] = st;
	return st;
}

static int uft_map_cmp(const void *a, const void *b)
{
	const struct uft_map *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;
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
	char *path, *buf, *line, *last = NULL;
	size_t len, cap = 0;
	int ret;

	sm->loaded = true;
	path = uft_pathf(uf, "sid-%s.map", sm->sid);
	if (!path)
		return;
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
	/* /proc maps are in address order; make sure for the search */
	if (sm->n > 1)
		qsort(sm->v, sm->n, sizeof(*sm->v), uft_map_cmp);
	free(buf);
	free(path);
}

const char *uft_sidmap_key(const void *val)
{
	return ((const struct uft_sidmap *)val)->sid;
}

/* The map of session id sid[0..len), made at the first mention. */
struct uft_sidmap *uft_sidmap(struct uftrace *uf, const char *sid, size_t len)
{
	struct uft_sidmap *sm;

	sm = uft_hash_find(&uf->sid_hash, sid, len, uft_sidmap_key);
	if (sm)
		return sm;
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		return NULL;
	sm->sid = strndup(sid, len);
	if (!sm->sid ||
	    uft_grow(&uf->sidmaps, uf->nsidmaps, sizeof(*uf->sidmaps)) ||
	    uft_hash_add(&uf->sid_hash, sm, uft_sidmap_key)) {
		free(sm->sid);
		free(sm);
		return NULL;
	}
	uf->sidmaps[uf->nsidmaps++] = sm;
	return sm;
}

/* The latest session of pid started by ts, or NULL; *first its earliest. */
static const struct uft_session *uft_pid_session(const struct uftrace *uf,
						 int64_t pid, uint64_t ts,
						 const struct uft_session **first)
{
	size_t lo, hi, at;

	uft_pid_range(uf, pid, &lo, &hi);
	*first = lo < hi ? &uf->sess[uf->by_pid[lo]] : NULL;
	at = uft_after(uf, lo, hi, ts);
	return at > lo ? &uf->sess[uf->by_pid[at - 1]] : NULL;
}

/* The start of the first session of pid after ts, or UINT64_MAX. */
static uint64_t uft_next_start(const struct uftrace *uf, int64_t pid,
			       uint64_t ts)
{
	size_t lo, hi, at;

	uft_pid_range(uf, pid, &lo, &hi);
	at = uft_after(uf, lo, hi, ts);
	return at < hi ? uf->sess[uf->by_pid[at]].start : UINT64_MAX;
}

/*
 * The session of task t at time ts (cached per task): the latest one of
 * its pid begun by then; before that (a forked child before it calls
 * exec) its parent's; else the first one of its pid or of its parent.
 */
const struct uft_session *uft_task_session_find(struct uftrace *uf,
						struct uft_task *t,
						uint64_t ts)
{
	const struct uft_session *best, *first, *pfirst = NULL;
	uint64_t until, u;

	best = uft_pid_session(uf, t->pid, ts, &first);
	if (!best && t->ppid)
		best = uft_pid_session(uf, t->ppid, ts, &pfirst);
	/*
	 * a thread of a forked child before that child's own session (its
	 * exec): its leader's parent's, as session.c's find_task_session()
	 * goes from a task to its parent or leader
	 */
	if (!best && !t->ppid && t->pid != t->tid) {
		const struct uft_task *l = uft_task_of(uf, t->pid);

		if (l && l->ppid)
			best = uft_pid_session(uf, l->ppid, ts, &pfirst);
	}
	if (!best)
		best = pfirst ? pfirst : first;
	if (!best && uf->nsess == 1)
		best = &uf->sess[0];
	if (!best) {
		t->sess = NULL;
		return NULL;
	}
	/* valid from its start (or 0) until a later session of the task's pid */
	until = uft_next_start(uf, t->pid, ts);
	u = uft_next_start(uf, t->ppid, ts);
	if (u < until)
		until = u;
	u = uft_next_start(uf, best->pid, ts);
	if (u < until)
		until = u;
	t->sess = best;
	t->sess_from = best->start <= ts ? best->start : 0;
	t->sess_until = until;
	return best;
}

static const struct uft_map *uft_find_map(const struct uft_sidmap *sm,
					  uint64_t addr)
{
	size_t lo = 0, hi = sm->n;

	/* the last mapping that starts at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sm->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < sm->v[lo - 1].end)
		return &sm->v[lo - 1];
	return NULL;
}

/* The symbol of addr in task t at time ts, or NULL; *modp its module. */
struct uft_sym *uft_resolve(struct uftrace *uf, struct uft_task *t,
			    uint64_t ts, uint64_t addr,
			    struct uft_symtab **modp)
{
	return uft_resolve_sess(uf, uft_task_session(uf, t, ts), ts, addr,
				modp);
}

/* uft_resolve() in session s (uft_resolve_sess: the cache first) */
struct uft_sym *uft_resolve_in(struct uftrace *uf,
			       const struct uft_session *s, uint64_t ts,
			       uint64_t addr, struct uft_symtab **modp)
{
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
	c = uft_symcache_of(uf, addr);
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
		/*
		 * a lone input's fix-up functions stay out of the cache, and
		 * so off the fast paths: uft_dd_step() sees their entries
		 */
		if (!(uf->lone && sym && sym->fixup)) {
			c->map = s->map;
			c->addr = addr;
			c->sym = sym;
			c->mod = mod;
		}
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
