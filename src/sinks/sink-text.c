// SPDX-License-Identifier: GPL-2.0-or-later
/* Text: every event through its rule's template, one line each. */
#include <errno.h>
#include <stdlib.h>

#include "render.h"
#include "rules-table.h"
#include "sink.h"
#include "source.h"

struct sink_text {
	struct sink sink;
};

/*
 * The built-in rules and inputs of one kind: the output is the reference
 * tool's, header lines included (trace-cmd report's "cpus=N").
 */
static int sink_text_begin(struct sink *s, struct source **srcs, size_t n,
			   struct diag *d)
{
	size_t i;
	int ret;

	(void)d;
	if (!n || s->render->rules->text || !srcs[0]->ops->render_header)
		return 0;
	for (i = 1; i < n; i++)
		if (srcs[i]->ops != srcs[0]->ops)
			return 0;
	for (i = 0; i < n; i++) {
		ret = srcs[i]->ops->render_header(srcs[i], s->out);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* render_event's 1 (printed) and 0 (nothing to print) both go on: a jump */
static int sink_text_event(struct sink *s, const struct event *ev,
			   struct diag *d)
{
	return render_event(s->render, ev, s->out, d);
}

static int sink_text_end(struct sink *s, struct diag *d)
{
	return 0;
}

static void sink_text_destroy(struct sink *s)
{
	free(container_of(s, struct sink_text, sink));
}

static const struct sink_ops sink_text_ops = {
	.name = "text",
	.begin = sink_text_begin,
	.event = sink_text_event,
	.end = sink_text_end,
	.destroy = sink_text_destroy,
};

struct sink *sink_text_create(struct outbuf *out, struct render *render)
{
	struct sink_text *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->sink.ops = &sink_text_ops;
	t->sink.out = out;
	t->sink.render = render;
	return &t->sink;
}
