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

	for (i = 0; i < ct->nfields; i++)
		free(ct->fields[i].key);
	free(ct->fields);
	free(ct->head);
	free(ct->cat);
}

/*
 * Fields that are not args: what the event's name, category, process and
 * thread say already, and libtraceevent's text (a print per event).
 */
static bool chrome_skip_field(const char *name)
{
	static const char *const skip[] = { "info", "id", "system", "name",
					    "comm" };
	size_t i;

	if (!strncmp(name, "common_", 7))
		return true;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return true;
	return false;
}

static bool chrome_is_word(const char *name)
{
	return name[0] >= '1' && name[0] <= '9' && !name[1];
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

static int chrome_type_init(struct sink_chrome *c, struct chrome_type *ct,
			    const struct event *ev)
{
	const struct event_type *t = ev->type;
	struct source *src = ev->src;
	const char *names[CHROME_MAXFIELDS];
	const char *cat = t->system ? t->system : src->ops->kind;
	const char *name;
	char idname[24];
	size_t i, n = 0, k;

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
	ct->cat = malloc(SINK_JSON_BOUND(strlen(cat)) + 8);
	if (!ct->cat)
		return -ENOMEM;
	ct->catlen = (size_t)(CHROME_LIT(ct->cat, "\"cat\":") - ct->cat);
	ct->catlen += sink_json_str(ct->cat + ct->catlen, cat, strlen(cat));
	if (!t->has_id) {
		name = sink_event_name(c->sink.render, ev);
		if (!name) {
			snprintf(idname, sizeof(idname), "0x%08" PRIx64, t->id);
			name = idname;
		}
		ct->head = malloc(SINK_JSON_BOUND(strlen(name)) + ct->catlen +
				  64);
		if (!ct->head)
			return -ENOMEM;
		ct->headlen = chrome_make_head(ct, ct->head, name, strlen(name));
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
		if (chrome_skip_field(names[i]))
			continue;
		idx = src->ops->bind(src, t, names[i]);
		if (idx < 0)
			continue;
		if (!strcmp(names[i], "pid"))
			ct->add_pid = false;
		f->slot = idx;
		f->word = t->has_id && chrome_is_word(names[i]);
		f->key = malloc(SINK_JSON_BOUND(strlen(names[i])) + 2);
		if (!f->key)
			return -ENOMEM;
		k = 0;
		if (ct->nfields)
			f->key[k++] = ',';
		k += sink_json_str(f->key + k, names[i], strlen(names[i]));
		f->key[k++] = ':';
		f->keylen = k;
		ct->nfields++;
	}
	ct->init = true;
	return 0;
}

struct chrome_type *chrome_type(struct sink_chrome *c,
				const struct event *ev, struct diag *d)
{
	struct chrome_src *cs = &c->csrcs[ev->src->index];
	uint32_t ti = ev->type->index;
	struct chrome_type *ct;
	void *grown;

	grown = cs->types;
	if (sink_grow(&grown, &cs->n, ti, sizeof(*cs->types)) < 0)
		goto nomem;
	cs->types = grown;
	ct = &cs->types[ti];
	if (!ct->init && chrome_type_init(c, ct, ev) < 0)
		goto nomem;
	return ct;
nomem:
	chrome_nomem(d);
	return NULL;
}

/* The head of an instant of ev: per type, or per id (kvmtrace). */
static const char *chrome_head(struct sink_chrome *c,
			       const struct chrome_type *ct,
			       const struct event *ev, size_t *len,
			       char *scratch)
{
	uint64_t id = ev->type->id;
	struct chrome_idhead *h;
	const char *name;
	char idname[24];
	size_t nlen;

	if (!ev->type->has_id) {
		*len = ct->headlen;
		return ct->head;
	}
	h = &c->idheads[(id ^ (id >> 7)) & (CHROME_IDCACHE - 1)];
	if (h->valid && h->id == id && h->src == ev->src->index) {
		*len = h->len;
		return h->head;
	}
	name = sink_event_name(c->sink.render, ev);
	if (!name) {
		snprintf(idname, sizeof(idname), "0x%08" PRIx64, id);
		name = idname;
	}
	nlen = strlen(name);
	if (SINK_JSON_BOUND(nlen) + ct->catlen + 48 > CHROME_HEADMAX) {
		/* a long label: not cached, and cut to what scratch holds */
		if (nlen > CHROME_LABELMAX)
			nlen = CHROME_LABELMAX;
		*len = chrome_make_head(ct, scratch, name, nlen);
		return scratch;
	}
	h->len = (uint8_t)chrome_make_head(ct, h->head, name, nlen);
	h->id = id;
	h->src = ev->src->index;
	h->valid = true;
	*len = h->len;
	return h->head;
}

static char *chrome_value(char *p, const struct value *v)
{
	switch (v->kind) {
	case VALUE_INT:
		if (v->neg && v->u)
			*p++ = '-';
		return chrome_dec(p, v->u);
	case VALUE_FLOAT:
		if (v->f != v->f || v->f - v->f != 0)	/* nan, inf */
			return CHROME_LIT(p, "null");
		return p + snprintf(p, 32, "%.17g", v->f);
	case VALUE_STR:
		return p + sink_json_str(p, v->s, v->len);
	case VALUE_NONE:
		break;
	}
	return CHROME_LIT(p, "null");
}

/* An instant of ev on thread key, named after its type or after name. */
int chrome_instant(struct sink_chrome *c, const struct chrome_type *ct,
		   const struct event *ev, uint64_t key,
		   const struct value *name, struct diag *d)
{
	struct value vals[CHROME_MAXFIELDS];
	char scratch[SINK_JSON_BOUND(CHROME_LABELMAX) + CHROME_HEADMAX];
	const char *head;
	size_t headlen, i, n = ct->nfields, need;
	uint32_t tid;
	char *p, *start;

	if (chrome_thread(c, key, ev, &ct->st, &tid) < 0)
		return chrome_nomem(d);
	if (name) {
		headlen = chrome_make_head(ct, scratch, name->s,
					   name->len < CHROME_LABELMAX ? name->len
								       : CHROME_LABELMAX);
		head = scratch;
	} else {
		head = chrome_head(c, ct, ev, &headlen, scratch);
	}
	need = headlen + CHROME_SLACK;
	for (i = 0; i < n; i++) {
		const struct chrome_field *f = &ct->fields[i];

		if (ev->src->ops->field(ev->src, ev, f->slot, &vals[i]) < 0)
			vals[i].kind = VALUE_NONE;
		need += f->keylen + 48;
		if (vals[i].kind == VALUE_STR)
			need += SINK_JSON_BOUND(vals[i].len);
	}
	/* kvmtrace: data words that are 0 at the end are not written */
	while (n && ct->fields[n - 1].word && vals[n - 1].kind == VALUE_INT &&
	       vals[n - 1].u == 0)
		n--;
	p = start = chrome_reserve(c, need);
	if (!p)
		return chrome_nomem(d);
	p = chrome_sep(c, p);
	p = chrome_lit(p, head, headlen);
	p = chrome_ts(c, p, ev->ts);
	p = chrome_pid_tid(p, chrome_tid_pid(c, tid), tid);
	p = CHROME_LIT(p, ",\"args\":{");
	for (i = 0; i < n; i++) {
		p = chrome_lit(p, ct->fields[i].key, ct->fields[i].keylen);
		p = chrome_value(p, &vals[i]);
	}
	if (ct->add_pid) {
		if (n)
			*p++ = ',';
		p = CHROME_LIT(p, "\"pid\":");
		if (ev->pid < 0)
			*p++ = '-';
		p = chrome_dec(p, ev->pid < 0 ? -(uint64_t)ev->pid
					      : (uint64_t)ev->pid);
	}
	if (ct->add_cpu) {
		p = CHROME_LIT(p, ",\"cpu\":");
		p = chrome_dec(p, ev->cpu);
	}
	p = CHROME_LIT(p, "}}");
	chrome_commit(c, start, p);
	return 0;
}
