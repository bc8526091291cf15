/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the YAML rule parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rules-yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules *r = NULL;
	struct diag d;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	diag_init(&d);
	if (rules_parse_yaml("fuzz.yaml", buf, size, &r, &d) == 0)
		rules_destroy(r);
	free(buf);
	return 0;
}
