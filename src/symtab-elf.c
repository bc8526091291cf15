// SPDX-License-Identifier: GPL-2.0-or-later
/* The function symbols of an ELF file, through libelf. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>

#include "diag.h"
#include "symtab.h"

static int symtab_elf_section(struct symtab *t, Elf *elf, Elf_Scn *scn,
			      const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n;

	if (!data || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (symtab_add(t, sym.st_value, sym.st_size, name,
			       strlen(name)) < 0)
			return -ENOMEM;
	}
	return 0;
}

int symtab_load_elf(struct symtab *t, int fd, const char *path,
		    struct diag *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int ret = 0;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		diag_set(d, "%s: libelf: %s", path, elf_errmsg(-1));
		return -EINVAL;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		diag_set(d, "%s: not a readable ELF file: %s", path,
			 elf_errmsg(-1));
		if (elf)
			elf_end(elf);
		return -EINVAL;
	}
	/* .symtab if there is one, else .dynsym */
	for (int pass = 0; pass < 2 && !t->n && ret == 0; pass++) {
		scn = NULL;
		while ((scn = elf_nextscn(elf, scn)) && ret == 0) {
			if (!gelf_getshdr(scn, &sh))
				continue;
			if (sh.sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB))
				ret = symtab_elf_section(t, elf, scn, &sh);
		}
	}
	elf_end(elf);
	if (ret < 0) {
		diag_set(d, "%s: %s", path, ret == -EFBIG ?
			 "more than 4 GiB of symbol names" : "out of memory");
		return ret;
	}
	if (!t->n) {
		diag_set(d, "%s: an ELF file without function symbols (stripped?)",
			 path);
		return -EINVAL;
	}
	return 0;
}
