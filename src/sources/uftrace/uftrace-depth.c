// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The records `uftrace dump` (v0.13, its raw output, no option) leaves out
 * of a task's file: a lone input's default text leaves out the same.
 *
 * dump reads each TID.dat through uftrace's call stack of the task
 * (do_dump_file() in cmds/dump.c: fstack_consume(), then
 * fstack_check_filter() and fstack_check_filter_done() of
 * utils/fstack.c). With no filter, what decides is:
 *
 *  - the task's stack count, its own, not the depth a record holds: set
 *    from the first entry or exit (its depth, one more for an exit) and
 *    again from the first one after a LOST record (fstack_account_time()),
 *    one up at an entry, one down at an exit, not below 0
 *    (fstack_update_stack_count());
 *  - the header's max_stack (1024 when the MAX_STACK feature is off): an
 *    entry whose frame (the count less one) or an exit whose frame (the
 *    count after it) is max_stack or more has no frame (fstack_get()) and
 *    is not shown, nor does it change anything else;
 *  - the display depth, 1024 (dump's --depth): the task's filter depth
 *    starts there; an entry shown takes one from it, and its frame keeps
 *    the value before (orig_depth); an entry met at 0 is not shown and its
 *    frame is marked NORECORD (fstack_entry()); an exit puts back what its
 *    frame kept, shown unless the frame is marked (fstack_exit()). A frame
 *    never entered keeps 1024, or what an entry left there before;
 *  - an event is not shown at filter depth 0; sched-in (sched-out, also
 *    pre-empted) events count as an exit (entry) at depth 0
 *    (convert_perf_event()), and sched-in and sched-out are not shown
 *    when their frame (the count; the count less one) is out of the stack.
 *
 * The fix-ups of fstack_entry() and fstack_update() (by name, exactly,
 * in any module of the session: fixup_syms[] of utils/fstack.c): after
 * the entry of an exec function that dump shows, the stack count is 0;
 * at the entry of a setjmp function (shown or not, but within
 * max_stack), the count is kept (for all tasks after: a global), and
 * after the entry of a longjmp function that dump shows, the stack count
 * is the one kept.
 * (The fork ones change only the indentation of replay.)
 *
 * LOST records, kernel and perf records are always shown. What dump
 * prints between records of a task ("inverted time") is printed for a
 * record it does not show too.
 *
 * The frames' kept values are an array, but for a band of frames
 * [lz_lo, lz_hi) entered one after the other, which hold K - frame: the
 * batched fast path (uftrace-fast.c) walks that band with a depth compare
 * and writes nothing (uft_dd_fast()).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uftrace-int.h"

#define UFT_DD_DEPTH	1024	/* dump's display depth (OPT_DEPTH_DEFAULT) */
#define UFT_FEAT_MAX_STACK	(UINT64_C(1) << 6)

/* Each task begins with nothing entered (setup_task_handle()). */
void uft_dd_reset(struct uftrace *uf)
{
	struct uft_dd *dd = &uf->dd;

	dd->set = false;
	dd->lost_seen = false;
	dd->sc = 0;
	dd->filt = UFT_DD_DEPTH;
	dd->init = 0;
	dd->lz_lo = dd->lz_hi = 0;
	dd->k = UFT_DD_DEPTH;
	dd->off = 0;
}

/* The fix-up a function of that (simple) name has: enum uft_fixup. */
int uft_dd_fixup(const char *name)
{
	static const struct {
		const char *name;
		uint8_t fix;
	} fix[] = {
		{ "execl", UFT_FIX_EXEC },
		{ "execlp", UFT_FIX_EXEC },
		{ "execle", UFT_FIX_EXEC },
		{ "execv", UFT_FIX_EXEC },
		{ "execve", UFT_FIX_EXEC },
		{ "execvp", UFT_FIX_EXEC },
		{ "execvpe", UFT_FIX_EXEC },
		{ "setjmp", UFT_FIX_SETJMP },
		{ "_setjmp", UFT_FIX_SETJMP },
		{ "sigsetjmp", UFT_FIX_SETJMP },
		{ "__sigsetjmp", UFT_FIX_SETJMP },
		{ "longjmp", UFT_FIX_LONGJMP },
		{ "siglongjmp", UFT_FIX_LONGJMP },
		{ "__longjmp_chk", UFT_FIX_LONGJMP },
	};
	size_t i;

	if (!name || !strchr("_els", name[0]))
		return UFT_FIX_NONE;
	for (i = 0; i < sizeof(fix) / sizeof(fix[0]); i++)
		if (!strcmp(name, fix[i].name))
			return fix[i].fix;
	return UFT_FIX_NONE;
}

/* The header's max_stack as uftrace takes it (open_data_file()). */
void uft_dd_setup(struct uftrace *uf, const unsigned char *hdr, size_t len)
{
	uf->dd.max_stack = UFT_DD_DEPTH;
	if ((uf->hdr.feat & UFT_FEAT_MAX_STACK) && len >= 34)
		uf->dd.max_stack = uft_u16(uf, hdr + 32);
	uft_dd_reset(uf);
}

static int32_t uft_dd_orig(const struct uft_dd *dd, int64_t i)
{
	if (i >= dd->lz_lo && i < dd->lz_hi)
		return (int32_t)(dd->k - i);
	if (i >= dd->init)
		return UFT_DD_DEPTH;
	return dd->orig[i];
}

static bool uft_dd_norec(const struct uft_dd *dd, int64_t i)
{
	if ((i >= dd->lz_lo && i < dd->lz_hi) || i >= dd->init)
		return false;
	return dd->norec[i];
}

/* Frames up to i (< max_stack) held in the arrays. */
static int uft_dd_fill(struct uft_dd *dd, int64_t i)
{
	if (!dd->orig) {
		dd->orig = malloc(sizeof(*dd->orig) * (dd->max_stack + 1u));
		dd->norec = malloc(dd->max_stack + 1u);
		if (!dd->orig || !dd->norec)
			return -ENOMEM;
	}
	while (dd->init <= i) {
		dd->orig[dd->init] = UFT_DD_DEPTH;
		dd->norec[dd->init] = 0;
		dd->init++;
	}
	return 0;
}

/* The band written out: each frame what it holds. */
static int uft_dd_spill(struct uft_dd *dd)
{
	int64_t i;

	if (dd->lz_lo < dd->lz_hi) {
		if (uft_dd_fill(dd, dd->lz_hi - 1))
			return -ENOMEM;
		for (i = dd->lz_lo; i < dd->lz_hi; i++) {
			dd->orig[i] = (int32_t)(dd->k - i);
			dd->norec[i] = 0;
		}
	}
	dd->lz_lo = dd->lz_hi = 0;
	return 0;
}

/* Frame i (< max_stack) keeps orig, marked or not. */
static int uft_dd_set(struct uft_dd *dd, int64_t i, int32_t orig, bool norec)
{
	bool plain = !norec && orig == dd->k - i;

	if (i >= dd->lz_lo && i < dd->lz_hi) {
		if (plain)
			return 0;
		if (uft_dd_spill(dd))
			return -ENOMEM;
	} else if (i == dd->lz_hi && plain) {
		dd->lz_hi++;
		return 0;
	}
	if (uft_dd_fill(dd, i))
		return -ENOMEM;
	dd->orig[i] = orig;
	dd->norec[i] = norec;
	return 0;
}

/*
 * After a record: the band again, one that the stack count is in or at
 * the top of, with the filter depth K less the count.
 */
static int uft_dd_anchor(struct uft_dd *dd)
{
	if (dd->sc >= dd->lz_lo && dd->sc <= dd->lz_hi &&
	    dd->filt == dd->k - dd->sc)
		return 0;
	if (uft_dd_spill(dd))
		return -ENOMEM;
	dd->lz_lo = dd->lz_hi = dd->sc;
	dd->k = dd->filt + dd->sc;
	return 0;
}

/* fstack_account_time() and fstack_update_stack_count() */
static void uft_dd_count(struct uft_dd *dd, unsigned type, int64_t depth)
{
	if (!dd->set) {
		dd->sc = depth + (type == UFT_EXIT);
		dd->set = true;
		dd->filt = UFT_DD_DEPTH;
	}
	if (dd->lost_seen && type != UFT_LOST) {
		dd->sc = depth + (type == UFT_EXIT);
		dd->lost_seen = false;
	}
	if (type == UFT_LOST)
		dd->lost_seen = true;
	else if (type == UFT_ENTRY)
		dd->sc++;
	else if (type == UFT_EXIT && dd->sc > 0)
		dd->sc--;
}

/*
 * Whether dump shows the record r of the task it reads (1, or 0), and
 * its state after it; -ENOMEM.
 */
int uft_dd_step(struct uftrace *uf, const struct uft_rec *r, unsigned fix)
{
	struct uft_dd *dd = &uf->dd;
	unsigned type = r->type;
	int64_t i;
	int32_t orig;
	int show = 1;

	if (type == UFT_EVENT) {
		uint64_t id = r->addr - UFT_EVENT_PERF;

		if (r->addr < UFT_EVENT_PERF ||
		    (id != UFT_PERF_SCHED_IN && id != UFT_PERF_SCHED_OUT &&
		     id != UFT_PERF_SCHED_OUT_PREEMPT)) {
			/* convert_perf_event() takes no other event */
			return dd->filt > 0;
		}
		uft_dd_count(dd, id == UFT_PERF_SCHED_IN ? UFT_EXIT : UFT_ENTRY,
			     0);
		i = id == UFT_PERF_SCHED_IN ? dd->sc : dd->sc - 1;
		if (dd->filt <= 0 || (id != UFT_PERF_SCHED_OUT_PREEMPT &&
				      (i < 0 || i >= dd->max_stack)))
			show = 0;
		return uft_dd_anchor(dd) ? -ENOMEM : show;
	}
	uft_dd_count(dd, type, r->depth);
	if (type == UFT_ENTRY) {
		i = dd->sc - 1;
		if (i >= dd->max_stack) {
			show = 0;
		} else if (dd->filt <= 0) {
			if (uft_dd_set(dd, i, (int32_t)dd->filt, true))
				return -ENOMEM;
			show = 0;
		} else {
			if (uft_dd_set(dd, i, (int32_t)dd->filt, false))
				return -ENOMEM;
			dd->filt--;
		}
		if (i < dd->max_stack && fix == UFT_FIX_SETJMP)
			dd->setjmp_count = dd->sc;
		else if (show && fix == UFT_FIX_EXEC)
			dd->sc = 0;
		else if (show && fix == UFT_FIX_LONGJMP)
			dd->sc = dd->setjmp_count;
	} else if (type == UFT_EXIT) {
		i = dd->sc;
		if (i >= dd->max_stack) {
			show = 0;
		} else {
			show = !uft_dd_norec(dd, i);
			orig = uft_dd_orig(dd, i);
			if (uft_dd_set(dd, i, orig, false))
				return -ENOMEM;
			dd->filt = orig;
		}
	}
	return uft_dd_anchor(dd) ? -ENOMEM : show;
}

/*
 * The fast path's bounds for a run of the task from its stack depth
 * (uftrace-fast.c): an entry at depth d shows as the band says while
 * d < *dlim, an exit to depth d - 1 while d > *xlo. False: none there.
 */
bool uft_dd_fast(struct uftrace *uf, size_t depth, size_t *dlim, size_t *xlo)
{
	struct uft_dd *dd = &uf->dd;
	int64_t lim = dd->lz_hi, off, lo;

	if (!dd->set || dd->lost_seen || dd->sc < dd->lz_lo ||
	    dd->sc > dd->lz_hi || dd->filt != dd->k - dd->sc)
		return false;
	if (lim > dd->max_stack)
		lim = dd->max_stack;
	if (lim > dd->k)
		lim = dd->k;
	off = dd->sc - (int64_t)depth;
	dd->off = off;
	lim -= off;
	lo = dd->lz_lo - off;
	*dlim = lim > 0 ? (size_t)lim : 0;
	*xlo = lo > 0 ? (size_t)lo : 0;
	return true;
}

/* After a run of the fast path, which left the task at depth. */
void uft_dd_after(struct uftrace *uf, size_t depth)
{
	struct uft_dd *dd = &uf->dd;

	dd->sc = (int64_t)depth + dd->off;
	dd->filt = dd->k - dd->sc;
}

void uft_dd_free(struct uftrace *uf)
{
	free(uf->dd.orig);
	free(uf->dd.norec);
	uf->dd.orig = NULL;
	uf->dd.norec = NULL;
}
