// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace data directories: their metadata (info, task.txt, events.txt,
 * the tasks); the helpers that find and read the files are
 * uftrace-files.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include "diag.h"

#include "uftrace-int.h"
#include "uftrace-walk.h"

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

/* ------------------------------------------------------------ metadata */

static int uft_parse_tids(const char *s, int64_t **out, size_t *n)
{
	int64_t *v = NULL;
	size_t cnt = 0;

	while (*s) {
		char *end;
		long long tid;

		errno = 0;
		tid = strtoll(s, &end, 10);
		if (errno || end == s)
			break;
		if (uft_grow(&v, cnt, sizeof(*v))) {
			free(v);
			return -ENOMEM;
		}
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
int uft_read_info(struct uftrace *uf, const char *name, int64_t **tids,
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
	const char *retauto = NULL, *enumauto = NULL;
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
	memcpy(uf->hdr.magic, buf, sizeof(uf->hdr.magic));
	uf->hdr.version = version;
	/* dump prints it as read, not swapped */
	memcpy(&uf->hdr.size, buf + 12, sizeof(uf->hdr.size));
	uf->hdr.endian = (uint8_t)buf[14];
	uf->hdr.elf_class = (uint8_t)buf[15];
	uf->hdr.feat = feat;
	uf->hdr.info = announced;
	uf->rel_addr = feat & UFT_FEAT_SYM_REL_ADDR;
	uft_dd_setup(uf, (const unsigned char *)buf, len);
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
		} else if (!strcmp(key, "enumauto")) {
			enumauto = val;
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
	/* as uftrace's setup_auto_args_str(): a bad definition ends the list */
	if (!ret && enumauto && uft_enums_parse(&uf->enums, enumauto) == -ENOMEM)
		ret = -ENOMEM;
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

	if (uft_grow(&uf->sess, uf->nsess, sizeof(*uf->sess)))
		return NULL;
	n = &uf->sess[uf->nsess++];
	memset(n, 0, sizeof(*n));
	return n;
}

/* A TASK or FORK line; uft_tinfo_sort() keeps the first of a tid. */
static int uft_tinfo_add(struct uft_tinfo **v, size_t *n, int64_t tid,
			 int64_t pid, int64_t ppid)
{
	if (uft_grow(v, *n, sizeof(**v)))
		return -ENOMEM;
	(*v)[*n] = (struct uft_tinfo){ tid, pid, ppid, *n };
	(*n)++;
	return 0;
}

static int uft_tinfo_cmp(const void *a, const void *b)
{
	const struct uft_tinfo *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The tasks by tid, each once: the first line of a tid counts (a later
 * one is the same task after an exec).
 */
static void uft_tinfo_sort(struct uft_tinfo *v, size_t *n)
{
	size_t i, k = 0;

	if (*n)
		qsort(v, *n, sizeof(*v), uft_tinfo_cmp);
	for (i = 0; i < *n; i++)
		if (!k || v[i].tid != v[k - 1].tid)
			v[k++] = v[i];
	*n = k;
}

/* The task.txt line of tid in v (sorted), or NULL. */
static const struct uft_tinfo *uft_tinfo_find(const struct uft_tinfo *v,
					      size_t n, int64_t tid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].tid == tid ? &v[lo] : NULL;
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
 *        (older uftrace wrote tid=PID: uftrace reads either)
 *   TASK timestamp=S.NS tid=TID pid=PID
 *   FORK timestamp=S.NS pid=CHILD ppid=PARENT
 *   DLOP timestamp=S.NS tid=TID sid=SID base=HEX libname="PATH"
 */
int uft_read_tasks(struct uftrace *uf, struct uft_tinfo **tinfo,
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
			size_t sl;

			if (!uft_kv_int(line, "pid", 10, &pid) &&
			    !uft_kv_int(line, "tid", 10, &pid)) {
				what = "pid= or tid=";
			} else if (!sid || !(sl = strcspn(sid, " ")) || sl >= 64) {
				what = "sid=";
			} else {
				s = uft_add_session(uf);
				if (!s) {
					ret = -ENOMEM;
					break;
				}
				s->pid = pid;
				s->start = time;
				s->map = uft_sidmap(uf, sid, sl);
				if (s->map)
					s->map->last_sess = uf->nsess;
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
			struct uft_sidmap *sm;
			char *lib;

			if (!uft_kv_int(line, "base", 16, &base)) {
				what = "base=";
			} else if (!sid) {
				what = "sid=";
			} else if (!(lib = uft_kv_quoted(line, "libname", &bad))) {
				what = bad ? "libname=\"...\"" : NULL;
				if (!bad)
					ret = -ENOMEM;
			} else {
				/* the latest session of that id */
				sm = uft_hash_find(&uf->sid_hash, sid,
						   strcspn(sid, " "), uft_sidmap_key);
				if (sm && sm->last_sess)
					s = &uf->sess[sm->last_sess - 1];
				if (!s) {
					what = "sid= of an earlier SESS";
				} else if (uft_grow(&s->dl, s->ndl, sizeof(*s->dl))) {
					ret = -ENOMEM;
				} else {
					s->dl[s->ndl].time = time;
					s->dl[s->ndl].base = (uint64_t)base;
					s->dl[s->ndl].mod = uft_module(uf, lib);
					if (!s->dl[s->ndl].mod)
						ret = -ENOMEM;
					else
						s->ndl++;
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
	if (!ret)
		uft_tinfo_sort(*tinfo, ntinfo);
	return ret;
}

static int uft_evname_cmp(const void *a, const void *b)
{
	const struct uft_evname *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* events.txt: "EVENT: ID PROVIDER:NAME" */
int uft_read_events(struct uftrace *uf)
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
		if (uft_grow(&uf->evnames, uf->nevnames, sizeof(*n))) {
			ret = -ENOMEM;
			break;
		}
		n = uf->evnames;
		n[uf->nevnames].id = id;
		n[uf->nevnames].name = strdup(line + 5 + off);
		if (!n[uf->nevnames].name) {
			ret = -ENOMEM;
			break;
		}
		uf->nevnames++;
	}
	free(buf);
	/* by id, for uft_event_name(); the first of an id counts */
	if (uf->nevnames > 1)
		qsort(uf->evnames, uf->nevnames, sizeof(*uf->evnames),
		      uft_evname_cmp);
	return ret;
}

static int uft_tid_cmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Every NUMBER.dat of the directory, when no list of tasks says which. */
int uft_scan_tids(struct uftrace *uf, int64_t **tids, size_t *ntids)
{
	struct dirent *de;
	DIR *dir = opendir(uf->dir);
	int ret = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char *end;
		long long tid;

		errno = 0;
		tid = strtoll(de->d_name, &end, 10);
		if (errno || end == de->d_name || strcmp(end, ".dat"))
			continue;
		if (uft_grow(tids, *ntids, sizeof(**tids))) {
			ret = -ENOMEM;
			break;
		}
		(*tids)[(*ntids)++] = tid;
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
	/* a CPU number fits 32 bits: no overflow in the bounds below */
	if ((*end && *end != ' ') || n >= UINT32_MAX ||
	    tid < (int64_t)(n + 1) * 100 ||
	    tid >= (int64_t)(n + 2) * 100)
		return false;
	*cpu = (uint32_t)n;
	return true;
}

int uft_setup_tasks(struct uftrace *uf, int64_t *tids, size_t ntids,
		    const struct uft_tinfo *ti, size_t nti, size_t nperf,
		    size_t nkern)
{
	const struct uft_tinfo *tinfo;
	size_t i, n = 0;
	bool all_qemu = true;

	/* `uftrace dump` reads the tasks in the order of the list */
	if (ntids) {
		uf->tid_order = malloc(ntids * sizeof(*uf->tid_order));
		if (!uf->tid_order)
			return -ENOMEM;
		memcpy(uf->tid_order, tids, ntids * sizeof(*tids));
		uf->norder = ntids;
	}
	if (ntids)	/* tids may be NULL: qsort() wants a valid pointer */
		qsort(tids, ntids, sizeof(*tids), uft_tid_cmp);
	uf->tasks = calloc(ntids + nperf + nkern + 1, sizeof(*uf->tasks));
	uf->heap = calloc(ntids + nperf + nkern + 1, sizeof(*uf->heap));
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
		tinfo = uft_tinfo_find(ti, nti, t->tid);
		if (tinfo) {
			t->pid = tinfo->pid;
			t->ppid = tinfo->ppid;
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
	/* the perf-cpuN.dat after the tasks: ties go to the tasks */
	for (i = 0; i < nperf; i++) {
		struct uft_task *t = &uf->tasks[n + i];

		if (uft_perf_setup(uf, t, (uint32_t)i) < 0)
			return -ENOMEM;
		t->order = (uint32_t)(n + i);
	}
	uf->nperf = nperf;
	return 0;
}
