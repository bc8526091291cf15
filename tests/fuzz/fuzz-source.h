/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the source fuzz targets: open path with the reader
 * source_detect() picks and drain it, exercising every per-event hook.
 */
#ifndef KTF_FUZZ_SOURCE_H
#define KTF_FUZZ_SOURCE_H

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "event.h"
#include "outbuf.h"
#include "source.h"

#define FUZZ_MAX_EVENTS 100000

static void fuzz_drain(const char *path, const struct source_ops *want)
{
	const struct source_ops *ops = NULL;
	struct source *src = NULL;
	struct outbuf *out = NULL;
	const char *names[64];
	struct diag d;
	struct event ev;
	unsigned long n = 0;
	int fd = -1;

	diag_init(&d);
	if (source_detect(path, &ops, &d) < 0 || ops != want)
		return;
	src = source_create(ops, path, 0);
	if (!src)
		return;
	if (source_open(src, &d) < 0)
		goto end;
	fd = open("/dev/null", O_WRONLY);
	out = outbuf_create(fd);
	if (!out)
		goto end;
	for (;;) {
		size_t i, nf = 0;

		/* the pipeline, not the source, sets relts and relts_neg */
		memset(&ev, 0, sizeof(ev));
		if (n++ >= FUZZ_MAX_EVENTS || src->ops->next(src, &ev, &d) <= 0)
			break;

		if (src->ops->fields)
			nf = src->ops->fields(src, ev.type, names, 64);
		for (i = 0; i < nf && i < 64; i++) {
			struct value v;
			int idx = src->ops->bind(src, ev.type, names[i]);

			if (idx >= 0)
				src->ops->field(src, &ev, idx, &v);
		}
		if (src->ops->render_default)
			src->ops->render_default(src, &ev, out);
		if (src->ops->render_args)
			src->ops->render_args(src, &ev, 1000.0, out);
	}
end:
	if (out)
		outbuf_destroy(out);
	if (fd >= 0)
		close(fd);
	source_destroy(src);
}

#endif
