/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by tracedat-file.c (reading a trace.dat's header and options) and
 * tracedat-inflate.c (writing an uncompressed copy of a version 7 file,
 * once tracedat-room.c found room for it): the layout's constants and the
 * bounded reader.
 */
#ifndef KTF_TRACEDAT_INT_H
#define KTF_TRACEDAT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracedat-file.h"

#define TD_MAGIC	"\x17\x08\x44tracing"
#define TD_MAGIC_LEN	10

/* option ids (trace-cmd.dat.v7(5)) */
enum {
	TD_OPT_DONE = 0,
	TD_OPT_DATE = 1,
	TD_OPT_BUFFER = 3,
	TD_OPT_TRACECLOCK = 4,
	TD_OPT_CPUCOUNT = 8,
	TD_OPT_UNAME = 5,
	TD_OPT_TIME_SHIFT = 12,
	TD_OPT_GUEST = 13,
	TD_OPT_TSC2NSEC = 14,
};

#define TD_SEC_COMPRESSED	1

/*
 * The most a section other than the CPU data may inflate to, by id, and
 * all of them together: a claim beyond is damage (a compression bomb),
 * refused with the numbers before anything is inflated, so that a file of
 * a few KiB cannot make the copy, or libtracecmd, take hundreds of MiB
 * within zstd's own ratio bound. No real trace comes near: measured on 28
 * public trace.dat files (v6 and v7, x86-64 and arm64, zlib and zstd) and
 * on this machine's kernel, kallsyms is at most 16.4 MB (a distribution
 * kernel with its modules), event formats 2.5 MB (every event of a kernel:
 * 2.0 MB), ftrace formats 12 KB, printk formats 5.4 KB, cmdlines 2.2 KB
 * (saved_cmdlines keeps at most 32768 tasks: under 1 MB), an options
 * section 3.5 KB.
 */
#define TD_KALLSYMS_MAX		(64u << 20)
#define TD_FORMATS_MAX		(32u << 20)
#define TD_OPTIONS_MAX		(16u << 20)	/* and every other section */
#define TD_METADATA_MAX		(128u << 20)	/* all of them together */
/* options sections chained by their DONE options */
#define TD_SECTIONS_MAX		4096

struct td_reader {
	const char *name;
	int fd;
	uint64_t pos;
	uint64_t size;
	bool big;
	/* owned: the zstd context td_inflate() reuses, chunk after chunk
	 * (ZSTD_decompress() makes one per call); td_close() frees it */
	void *zctx;
};

typedef int (*td_option_fn)(void *arg, unsigned id, unsigned char *data,
			    size_t len);

/*
 * The most bytes n compressed bytes can inflate to with f's algorithm, as
 * the format bounds it: a zstd block of at most 128 KiB takes at least 4
 * bytes (3 of header, 1 of RLE), so 32768 per byte; deflate's longest
 * match (258 bytes) takes at least 2 bits, so 1032 per byte. A claimed
 * size beyond it is damage (a compression bomb), whatever the data says.
 * UINT64_MAX for an algorithm not known here.
 */
uint64_t td_ratio_max(const struct tracedat_file *f, uint64_t n);
/* The most section id may inflate to (TD_KALLSYMS_MAX …), and its name. */
uint64_t td_section_cap(unsigned id);
const char *td_section_name(unsigned id);
int td_read(struct td_reader *r, void *buf, size_t n);
/* Close r's file and free what it holds. */
void td_close(struct td_reader *r);
uint64_t td_get(const unsigned char *b, size_t n, bool big);
int td_num(struct td_reader *r, size_t n, uint64_t *v);
int td_str(struct td_reader *r, char *buf, size_t len);
/* tracedat-options.c: the options it reads, and the walk over them */
int td_options_each(const struct td_reader *r, unsigned char *p,
		    size_t n, uint64_t at, td_option_fn fn, void *arg,
		    struct diag *d);
/* f's trace clock from an option or the v6 text (clock owned, may be NULL) */
void td_set_clock(struct tracedat_file *f, char *clock);
/* TSC2NSEC, TIME_SHIFT, GUEST and UNAME into f, as libtracecmd reads them */
void td_host_option(struct tracedat_file *f, unsigned id,
		    const unsigned char *p, size_t len, bool big);
/* The clock reading's td_option_fn: arg a struct td_clock_walk. */
struct td_clock_walk {
	const struct td_reader *r;
	struct tracedat_file *f;
	uint64_t next;			/* the DONE option's next section */
};
int td_clock_option(void *arg, unsigned id, unsigned char *p, size_t len);
bool td_buffer_strings(const unsigned char *p, size_t len,
		       size_t *clock, size_t *after);
int td_inflate(struct td_reader *r, struct tracedat_file *f,
	       const char *what, uint64_t at,
	       const unsigned char *src, size_t n,
	       unsigned char *dst, size_t usize, struct diag *d);
int td_section_read(struct td_reader *r, struct tracedat_file *f,
		    uint64_t at, int want, const char *what,
		    uint64_t limit, unsigned char **out, size_t *len,
		    struct diag *d);
/*
 * What td_section_read() checks before it decompresses, without reading
 * the content: the section at at, its compressed and inflated sizes (at
 * most limit), and for zstd the size its frame header gives. 0 or -EIO
 * with d filled.
 */
int td_section_peek(struct td_reader *r, struct tracedat_file *f,
		    uint64_t at, const char *what, uint64_t limit,
		    struct diag *d);
/*
 * tracedat-room.c: is there room for a copy of size bytes where out is:
 * the free space of its file system, and the file-size limit (ulimit
 * -f), whose SIGXFSZ would otherwise end the process mid-copy. -ENOSPC
 * with the numbers in d when not. Without a copy (out < 0), libtracecmd
 * inflates the file in memory and keeps it: the memory available and
 * ulimit -v bound it instead (-EFBIG). name: the file's, for messages.
 */
int td_room(const char *name, int out, uint64_t size, struct diag *d);

#endif
