// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The most each section of a version 7 trace.dat other than the CPU data
 * may inflate to (tracedat-int.h says why these numbers), and its name in
 * messages.
 */
#include "tracedat-int.h"

uint64_t td_section_cap(unsigned id)
{
	switch (id) {
	case 18:	/* event formats */
		return TD_FORMATS_MAX;
	case 19:	/* kallsyms */
		return TD_KALLSYMS_MAX;
	default:
		return TD_OPTIONS_MAX;
	}
}

const char *td_section_name(unsigned id)
{
	static const char *const names[] = {
		[0] = "options section", [15] = "strings section",
		[16] = "header section", [17] = "ftrace formats section",
		[18] = "event formats section", [19] = "kallsyms section",
		[20] = "printk section", [21] = "cmdlines section",
		[22] = "text buffer section",
	};

	return id < sizeof(names) / sizeof(*names) && names[id] ? names[id]
								: "section";
}
