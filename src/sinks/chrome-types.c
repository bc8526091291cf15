// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Chrome JSON: what the sink keeps per event type (a head, a category, the
 * fields written as args), and instants.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "clock.h"
#include "diag.h"
#include "outbuf.h"
#include "pyfmt.h"
#include "render.h"

void chrome_type_fini(struct chrome_type *ct)
{
	size_t i;

	for (i = 0; i < ct->nfields; i++) {
		free((char *)ct->fields[i].k.jkey);
		free((char *)ct->fields[i].k.key);
	}
	free(ct->fields);
	free(ct->u32_offs);
	free(ct->at_offs);
	free(ct->iids);
	free(ct->args);
	free(ct->head);
	free(ct->name);
	free(ct->cat);
}

static bool chrome_listed(const char **names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/*
 * Is x (listed) the event's own field, which hides the common key of that
 * name (sched_wakeup's comm and pid, irq_handler_entry's name)? It is
 * when the source also has common_x, bound elsewhere.
 */
static bool chrome_own(struct source *src, const struct event_type *t,
		       const char **names, size_t n, const char *x)
{
	char common[32];
	int a, b;

	snprintf(common, sizeof(common), "common_%s", x);
	if (!chrome_listed(names, n, common))
		return false;
	a = src->ops->bind(src, t, x);
	b = src->ops->bind(src, t, common);
	return a >= 0 && b >= 0 && a != b;
}

/*
 * Fields that are not args: what the event's name, category, process and
 * thread say already, and libtraceevent's text (a print per event). An
 * event's own field of such a name stays, and so does the common key it
 * hides, as common_NAME (as rules name it). A program's (QEMU's) fields
 * are its event's arguments, but for the log's text (info).
 */
static bool chrome_skip_field(struct source *src, const struct event_type *t,
			      const char **names, size_t n, const char *name)
{
	static const char *const skip[] = { "info", "id", "system", "name",
					    "comm" };
	size_t i;

	if (src->ops->program)
		return !strcmp(name, "info");
	if (!strncmp(name, "common_", 7))
		return !((!strcmp(name + 7, "comm") || !strcmp(name + 7, "pid") ||
			  !strcmp(name + 7, "name")) &&
			 chrome_listed(names, n, name + 7) &&
			 chrome_own(src, t, names, n, name + 7));
	if ((!strcmp(name, "comm") || !strcmp(name, "name")) &&
	    chrome_own(src, t, names, n, name))
		return false;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return true;
	return false;
}

/*
 * An address, written as a hex string (JSON readers hold numbers in
 * doubles): addr, address, ip, rip, ptr, call_site, caller, gpa, gva,
 * hpa, hva, and names ending in _ and one of these.
 */
static bool chrome_is_address(const char *name)
{
	static const char *const addr[] = { "addr", "address", "ip", "rip",
					    "ptr", "call_site", "caller", "gpa",
					    "gva", "hpa", "hva" };
	const char *tail = strrchr(name, '_');
	size_t i;

	for (i = 0; i < sizeof(addr) / sizeof(addr[0]); i++)
		if (!strcmp(name, addr[i]) ||
		    (tail && !strcmp(tail + 1, addr[i])))
			return true;
	return false;
}

static bool chrome_is_word(const char *name)
{
	return name[0] >= '1' && name[0] <= '9' && !name[1];
}

/* "0x%08x" of id (snprintf's was 3 % of --chrome), NUL-terminated in
 * buf[24]; returns its length */
static size_t chrome_idname(char *buf, uint64_t id)
{
	size_t n = (size_t)((67 - __builtin_clzll(id | 1)) >> 2);

	if (n < 8)
		n = 8;
	buf[0] = '0';
	buf[1] = 'x';
	pyfmt_put_hex(buf + 2, id, n, 'a' - '0' - 10);
	buf[2 + n] = '\0';
	return 2 + n;
}

/* {"name":NAME,"cat":"…","ph":"i","s":"t","ts": into buf; its length. */
size_t chrome_make_head(const struct chrome_type *ct, char *buf,
			const char *name, size_t len)
{
	char *p = buf;

	p = CHROME_LIT(p, "{\"name\":");
	p += sink_json_str(p, name, len);
	*p++ = ',';
	p = chrome_lit(p, ct->cat, ct->catlen);
	p = CHROME_LIT(p, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
	return (size_t)(p - buf);
}

/* chrome_make_head() of a name that needs no escapes ("0x0e894a10") */
static size_t chrome_make_head_plain(const struct chrome_type *ct, char *buf,
				     const char *name, size_t len)
{
	char *p = buf;

	p = CHROME_LIT(p, "{\"name\":\"");
	p = chrome_lit(p, name, len);
	p = CHROME_LIT(p, "\",");
	p = chrome_lit(p, ct->cat, ct->catlen);
	p = CHROME_LIT(p, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
	return (size_t)(p - buf);
}

static int chrome_type_init(struct sink_chrome *c, struct chrome_type *ct,
			    const struct event *ev)
{
	const struct event_type *t = ev->type;
	struct source *src = ev->src;
	const char *names[CHROME_MAXFIELDS];
	const char *cat = t->system ? t->system : src->ops->kind;
	const char *name;
	char idname[24], *jkey, *fname;
	size_t i, n = 0, k, off, lenoff;

	sink_type_init(&ct->st, src, t);
	ct->named = -1;
	ct->prog = src->ops->program != NULL;
	chrome_cpu_type(ct, src, t);
	/* an exit's guest function: --guest-syms, or a paired guest's */
	ct->sym = SINK_NOSLOT;
	if (ct->st.role == SINK_EXIT || (t->has_id && t->id == SINK_KVMTRACE_VMEXIT)) {
		int idx = src->ops->bind(src, t, "guest_sym");

		ct->sym = idx < 0 ? SINK_NOSLOT : idx;
	}
	ct->rawcat = cat;
	ct->rawcatlen = strlen(cat);
	ct->cat = malloc(SINK_JSON_BOUND(strlen(cat)) + 8);
	if (!ct->cat)
		return -ENOMEM;
	ct->catlen = (size_t)(CHROME_LIT(ct->cat, "\"cat\":") - ct->cat);
	ct->catlen += sink_json_str(ct->cat + ct->catlen, cat, strlen(cat));
	if (!t->has_id) {
		name = sink_event_name(c->sink.render, ev);
		if (!name) {
			chrome_idname(idname, t->id);
			name = idname;
		}
		ct->head = malloc(SINK_JSON_BOUND(strlen(name)) + ct->catlen +
				  64);
		if (!ct->head)
			return -ENOMEM;
		ct->headlen = chrome_make_head(ct, ct->head, name, strlen(name));
		ct->name = strdup(name);
		if (!ct->name)
			return -ENOMEM;
		ct->namelen = strlen(name);
	}
	if (src->ops->fields)
		n = src->ops->fields(src, t, names, CHROME_MAXFIELDS);
	if (n > CHROME_MAXFIELDS)
		n = CHROME_MAXFIELDS;
	ct->fields = calloc(n ? n : 1, sizeof(*ct->fields));
	if (!ct->fields)
		return -ENOMEM;
	ct->add_pid = true;
	for (i = 0; i < n; i++) {
		struct chrome_field *f = &ct->fields[ct->nfields];
		int idx;

		if (!strcmp(names[i], "common_cpu"))
			ct->add_cpu = true;
		if (chrome_skip_field(src, t, names, n, names[i]))
			continue;
		idx = src->ops->bind(src, t, names[i]);
		if (idx < 0)
			continue;
		if (!strcmp(names[i], "pid"))
			ct->add_pid = false;
		f->slot = idx;
		f->u32_off = -1;
		f->u64 = false;
		if (src->ops->field_u32 && src->ops->field_u32(src, idx, &off) &&
		    off <= CHROME_AT_MAX) {
			f->u32_off = (int32_t)off;
		} else if (src->ops->field_at &&
			   src->ops->field_at(src, idx, &off, &lenoff) ==
				   SOURCE_AT_U64 &&
			   off <= CHROME_AT_MAX) {
			f->u32_off = (int32_t)off;
			f->u64 = true;
		}
		f->word = t->has_id && chrome_is_word(names[i]);
		f->k.hex = chrome_is_address(names[i]);
		/* the event's own cpu: the record's is common_cpu */
		if (!strcmp(names[i], "cpu"))
			ct->cpu_own = true;
		/* 16 bytes at least: copied 16 at a time (timeline.h) */
		jkey = calloc(1, SINK_JSON_BOUND(strlen(names[i])) + 2 + 16);
		fname = strdup(names[i]);
		if (!jkey || !fname) {
			free(jkey);
			free(fname);
			return -ENOMEM;
		}
		k = sink_json_str(jkey, names[i], strlen(names[i]));
		jkey[k++] = ':';
		f->k.key = fname;
		f->k.keylen = (uint32_t)strlen(names[i]);
		f->k.jkey = jkey;
		f->k.jkeylen = (uint32_t)k;
		ct->jargs += TL_ARGBOUND(&f->k);
		ct->nfields++;
	}
	/* pid, cpu */
	ct->jargs += 2 * (48 + 16);
	ct->args = calloc(ct->nfields + 2, sizeof(*ct->args));
	ct->u32_offs = calloc(ct->nfields + 1, sizeof(*ct->u32_offs));
	ct->iids = calloc(ct->nfields + 1, sizeof(*ct->iids));
	if (!ct->args || !ct->u32_offs || !ct->iids)
		return -ENOMEM;
	ct->all_at = ct->nfields <= CHROME_AT_FIELDS;
	ct->args_uint = true;
	ct->at_offs = calloc(ct->nfields + 1, sizeof(*ct->at_offs));
	if (!ct->at_offs)
		return -ENOMEM;
	for (i = 0; i < ct->nfields; i++) {
		const struct chrome_field *f = &ct->fields[i];

		ct->at_offs[i] = f->u32_off < 0 ? 0 : (uint32_t)f->u32_off;
		if (f->u64 && i < CHROME_AT_FIELDS)
			ct->at_u64 |= 1ull << i;
		if (!f->word && i < CHROME_AT_FIELDS)
			ct->at_nonword |= 1ull << i;

		ct->args[i].k = &f->k;
		ct->args[i].hex = f->k.hex;
		value_set_u64(&ct->args[i].v, 0);
		ct->u32_offs[i] = f->u32_off < 0 ? -1
				  : f->u32_off << CHROME_AT_SHIFT |
					    f->word * CHROME_AT_WORD |
					    f->u64 * CHROME_AT_U64;
		if (f->u32_off < 0)
			ct->all_at = false;
		if (f->k.hex || f->k.jkeylen > 16)
			ct->args_uint = false;
	}
	ct->args_uint = ct->args_uint && ct->all_at;
	ct->init = true;
	return 0;
}

struct chrome_type *chrome_type_new(struct sink_chrome *c,
				    const struct event *ev, struct diag *d)
{
	struct chrome_src *cs = &c->csrcs[ev->src->index];
	uint32_t ti = ev->type->index;
	struct chrome_type *ct;
	void *grown;

	grown = cs->types;
	if (sink_grow(&grown, &cs->n, ti, sizeof(*cs->types)) < 0)
		goto nomem;
	if (grown != cs->types)	/* chrome_type()'s cache points into it */
		memset(c->tcache, 0, sizeof(c->tcache));
	cs->types = grown;
	ct = &cs->types[ti];
	if (!ct->init && chrome_type_init(c, ct, ev) < 0)
		goto nomem;
	return ct;
nomem:
	chrome_nomem(d);
	return NULL;
}

/*
 * The cache slot of (id, src): one of CHROME_IDPROBE slots from a
 * multiplicative hash (kvmtrace ids differ in bits 0-7 and 16-23, which a
 * mask of the low bits folded together), the one holding it, else a free
 * one, else the first.
 */
static struct chrome_idhead *chrome_idhead_find(struct sink_chrome *c,
						uint64_t id, uint32_t src)
{
	uint32_t i, at = (uint32_t)((id ^ (uint64_t)src << 40) *
				    0x9e3779b97f4a7c15ull >> 56);
	struct chrome_idhead *free = NULL;

	for (i = 0; i < CHROME_IDPROBE; i++) {
		struct chrome_idhead *h =
			&c->idheads[(at + i) & (CHROME_IDCACHE - 1)];

		if (!h->valid) {
			if (!free)
				free = h;
		} else if (h->id == id && h->src == src) {
			return h;
		}
	}
	return free ? free : &c->idheads[at & (CHROME_IDCACHE - 1)];
}

/*
 * The name of an instant of ev and its JSON head: per type, or per id
 * (kvmtrace); scratch holds both when they are not kept.
 */
static void chrome_head(struct sink_chrome *c, const struct chrome_type *ct,
			const struct event *ev, struct tl_event *te,
			char *scratch)
{
	uint64_t id = ev->type->id;
	struct chrome_idhead *h;
	const char *name;
	char idname[24];
	size_t nlen;

	if (!ev->type->has_id) {
		te->jhead = ct->head;
		te->jheadlen = ct->headlen;
		te->name = ct->name;
		te->namelen = ct->namelen;
		te->name_kept = true;
		te->name_iid = (uint32_t *)&ct->name_iid;
		return;
	}
	h = chrome_idhead_find(c, id, ev->src->index);
	if (h->valid && h->id == id && h->src == ev->src->index)
		goto cached;
	name = sink_event_name(c->sink.render, ev);
	if (!name) {
		/*
		 * an id nothing names (0x0e894a10): not cached, its head
		 * made each time; a stream of random ids evicted the
		 * common ones (one record in nine missed the cache)
		 */
		nlen = chrome_idname(idname, id);
		/* Perfetto: the name alone (no JSON head, here or below) */
		te->jheadlen = c->perfetto ? 0
					   : chrome_make_head_plain(ct, scratch,
								    idname,
								    nlen);
		te->jhead = scratch;
		memcpy(scratch + te->jheadlen, idname, nlen);
		te->name = scratch + te->jheadlen;
		te->namelen = nlen;
		return;
	}
	nlen = strlen(name);
	/* a long label: cut to what scratch holds */
	if (nlen > CHROME_LABELMAX)
		nlen = CHROME_LABELMAX;
	te->jheadlen = c->perfetto ? 0 : chrome_make_head(ct, scratch, name,
							  nlen);
	if (te->jheadlen > CHROME_HEADMAX || nlen > CHROME_HEADMAX) {
		/* not cached (the head's own length decides: "APIC_ACCESS"
		 * was left out by the bound of an escaped name's, 6 bytes a
		 * byte, 7 % of --chrome's instants made again each time) */
		te->jhead = scratch;
		memcpy(scratch + te->jheadlen, name, nlen);
		te->name = scratch + te->jheadlen;
		te->namelen = nlen;
		return;
	}
	h->len = (uint8_t)te->jheadlen;
	memcpy(h->head, scratch, te->jheadlen);
	memcpy(h->name, name, nlen);
	h->namelen = (uint8_t)nlen;
	h->id = id;
	h->src = ev->src->index;
	h->valid = true;
	h->ver = ++c->idhead_ver ? c->idhead_ver : ++c->idhead_ver;
	h->name_iid = 0;
cached:
	te->jhead = h->head;
	te->jheadlen = h->len;
	te->name = h->name;
	te->namelen = h->namelen;
	/* the slot's name until it is filled again: its version says which */
	te->name_kept = true;
	te->name_ver = h->ver;
	te->name_iid = &h->name_iid;
}

/*
 * The values of ct's fields into its args; the count of them kept: kvmtrace
 * data words that are 0 at the end are not written. *strb: the bytes their
 * strings may take in JSON.
 */
static size_t chrome_values(const struct chrome_type *ct,
			    const struct event *ev, size_t *strb)
{
	struct tl_arg *args = ct->args;
	const char *rec = ev->rec;
	size_t i, n = ct->nfields, keep = 0;

	if (ct->all_at) {
		/*
		 * kvmtrace: every field a word of the record, every one an
		 * INT from the start (args[i].v.kind stays); the fields
		 * kept, a bit each: those not data words, those not 0; the
		 * u64s (the event id) after the u32s. Branch-free: half the
		 * instructions of a branch or two a field.
		 */
		uint64_t nz = ct->at_nonword, m;

		for (i = 0; i < n; i++) {
			uint32_t w;

			memcpy(&w, rec + ct->at_offs[i], 4);
			args[i].v.u = w;
			nz |= (uint64_t)(w != 0) << i;
		}
		for (m = ct->at_u64; m; m &= m - 1) {
			uint64_t w;

			i = (size_t)__builtin_ctzll(m);
			memcpy(&w, rec + ct->at_offs[i], 8);
			args[i].v.u = w;
			nz |= (uint64_t)(w != 0) << i;
		}
		return nz ? (size_t)(64 - __builtin_clzll(nz)) : 0;
	}
	for (i = 0; i < n; i++) {
		int32_t o = ct->u32_offs[i];
		struct tl_arg *a = &args[i];

		if (o >= 0) {
			uint64_t w;

			if (o & CHROME_AT_U64) {
				memcpy(&w, rec + (o >> CHROME_AT_SHIFT), 8);
			} else {
				uint32_t w32;

				memcpy(&w32, rec + (o >> CHROME_AT_SHIFT), 4);
				w = w32;
			}
			a->v.u = w;
		} else if (ev->src->ops->field(ev->src, ev, ct->fields[i].slot,
					       &a->v) < 0) {
			a->v.kind = VALUE_NONE;
		} else if (a->v.kind == VALUE_STR) {
			*strb += SINK_JSON_BOUND(a->v.len);
		}
	}
	for (keep = n; keep && ct->fields[keep - 1].word &&
		       args[keep - 1].v.kind == VALUE_INT &&
		       !args[keep - 1].v.u;
	     keep--)
		;
	return keep;
}

/* An instant of ev on thread key, named after its type or after name. */
int chrome_instant(struct sink_chrome *c, const struct chrome_type *ct,
		   const struct event *ev, uint64_t key,
		   const struct value *name, struct diag *d)
{
	uint32_t tid;

	if (chrome_thread(c, key, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	return chrome_instant_tid(c, ct, ev, tid, name, d);
}

/* chrome_instant() on Chrome thread tid. */
int chrome_instant_tid(struct sink_chrome *c, const struct chrome_type *ct,
		       const struct event *ev, uint32_t tid,
		       const struct value *name, struct diag *d)
{
	struct tl_arg *args = ct->args;
	char scratch[SINK_JSON_BOUND(CHROME_LABELMAX) + CHROME_HEADMAX +
		     CHROME_LABELMAX];
	size_t i, n, keep, strb = 0;
	int ret;
	struct tl_event te;

	tl_event_init(&te, TL_INSTANT);
	te.args_always = true;
	te.ts = ev->ts;
	te.cat = ct->rawcat;
	te.catlen = ct->rawcatlen;
	te.cat_iid = (uint32_t *)&ct->cat_iid;
	te.args = args;
	te.pid = chrome_tid_pid(c, tid);
	te.tid = tid;
	if (name) {
		te.name = name->s;
		te.namelen = name->len < CHROME_LABELMAX ? name->len
							 : CHROME_LABELMAX;
		if (!c->perfetto) {
			te.jheadlen = chrome_make_head(ct, scratch, te.name,
						       te.namelen);
			te.jhead = scratch;
		}
	} else {
		chrome_head(c, ct, ev, &te, scratch);
	}
	/* args[i] holds field i's key (and a number's kind) from the start */
	n = keep = chrome_values(ct, ev, &strb);
	if (ct->add_pid) {
		value_set_s64(&args[n].v, ev->pid);
		args[n].hex = false;
		args[n++].k = TL_K("pid");
	}
	if (ct->add_cpu) {
		value_set_u64(&args[n].v, ev->cpu);
		args[n].hex = false;
		args[n++].k = ct->cpu_own ? TL_K("common_cpu") : TL_K("cpu");
	}
	/* every field a u32 or u64 word (no hex), pid >= 0 and cpu */
	te.args_uint = ct->args_uint && ev->pid >= 0;
	te.jargs = ct->jargs + strb;
	te.nargs = n;
	te.iids = ct->iids;
	te.niids = keep;	/* the fields' keys, before pid and cpu */
	ret = chrome_emit(c, &te);
	/* the fields' keys and kinds where pid and cpu went */
	for (i = keep; i < n && i < ct->nfields; i++) {
		args[i].k = &ct->fields[i].k;
		args[i].hex = ct->fields[i].k.hex;
		value_set_u64(&args[i].v, 0);
	}
	return ret < 0 ? chrome_nomem(d) : 0;
}
