/* bcfg: the boot and driver option lists (UEFI Shell 2.2, bcfg): dump, remove and move
 * options here; adding and modifying in bcfg_add.c. Options are named by their position
 * in BootOrder/DriverOrder (hex, as dump shows it), not by their variable's number. */
#include "bcfg.h"
#include "bcfg_cmd.h"

static const struct bcfg_kind kinds[] = {
    {"boot", u"Boot", u"BootOrder"},
    {"driver", u"Driver", u"DriverOrder"},
};

bool bcfg_position(struct shell *sh, const CHAR16 *text, UINTN *pos)
{
	UINT64 v;

	if (!sh_parse_u64(text, true, &v) || v > 0xffff) {
		sh_error(sh, "bcfg: '%ls' is not an option position (hex, as dump shows it)\n",
			 text);
		return false;
	}
	*pos = (UINTN)v;
	return true;
}

/* The option number at a position of the order; false (with a message) past its end. */
bool bcfg_at(struct shell *sh, const struct bcfg_kind *k, const UINT16 *order, UINTN count,
	     UINTN pos, UINT16 *number)
{
	if (pos >= count) {
		sh_error(sh, "bcfg: there is no %s option %X (the list has %u)\n", k->word,
			 (unsigned)pos, (unsigned)count);
		return false;
	}
	*number = order[pos];
	return true;
}

static void dump_one(struct shell *sh, const struct bcfg_kind *k, UINTN pos, UINT16 number,
		     bool verbose)
{
	struct bcfg_option o;
	CHAR16 name[16], *path;
	EFI_STATUS status = bcfg_option_read(k, number, &o);

	bcfg_var_name(name, k, number);
	sh_print(sh, "Option: %02X. Variable: %ls\n", (unsigned)pos, name);
	if (EFI_ERROR(status)) {
		sh_print(sh, "  (%s)\n",
			 status == EFI_NOT_FOUND	  ? "the variable is missing"
			 : status == EFI_VOLUME_CORRUPTED ? "not a valid load option"
							  : sys_status_text(status));
		return;
	}
	path = sh_devpath_text(sh, o.lo.file_path);
	sh_print(sh, "  Desc    - %ls\n", o.description);
	sh_print(sh, "  DevPath - %ls\n", path ? path : u"(none)");
	sh_print(sh, "  Optional- %s\n", o.lo.optional_size ? "Y" : "N");
	if (verbose) {
		sh_print(sh, "  Attr    - 0x%08X%s%s%s\n", o.lo.attributes,
			 o.lo.attributes & LOAD_OPTION_ACTIVE ? " ACTIVE" : " inactive",
			 o.lo.attributes & LOAD_OPTION_HIDDEN ? " HIDDEN" : "",
			 (o.lo.attributes & LOAD_OPTION_CATEGORY) == LOAD_OPTION_CATEGORY_APP
			     ? " APP"
			     : "");
		sys_hexdump(sh, 4, 0, o.lo.optional_data, o.lo.optional_size);
	}
	app_free(path);
	bcfg_option_free(&o);
}

static EFI_STATUS dump(struct shell *sh, const struct bcfg_kind *k, bool verbose)
{
	UINT16 *order;
	UINTN count;
	EFI_STATUS status = bcfg_order_read(k, &order, &count);

	if (EFI_ERROR(status)) {
		sh_error(sh, "bcfg: cannot read %ls: %s\n", k->order, sys_status_text(status));
		return status;
	}
	if (!count)
		sh_print(sh, "No %s options (%ls is empty).\n", k->word, k->order);
	for (UINTN i = 0; i < count && !sh_interrupted(sh); i++)
		dump_one(sh, k, i, order[i], verbose);
	app_free(order);
	return EFI_SUCCESS;
}

static EFI_STATUS rm(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a)
{
	UINT16 *order, number;
	UINTN count, pos;
	EFI_STATUS status;

	if (a->count != 3 || !bcfg_position(sh, a->pos[2], &pos)) {
		if (a->count != 3)
			sh_error(sh, "bcfg: rm takes the position of one option\n");
		return EFI_INVALID_PARAMETER;
	}
	status = bcfg_order_read(k, &order, &count);
	if (EFI_ERROR(status) || !bcfg_at(sh, k, order, count, pos, &number)) {
		app_free(order);
		return EFI_ERROR(status) ? status : EFI_NOT_FOUND;
	}
	mem_copy(&order[pos], &order[pos + 1], (count - pos - 1) * sizeof(UINT16));
	status = bcfg_order_write(k, order, count - 1);
	app_free(order);
	if (!EFI_ERROR(status)) {
		status = bcfg_option_delete(k, number);
		if (status == EFI_NOT_FOUND) /* it was only in the order */
			status = EFI_SUCCESS;
	}
	if (EFI_ERROR(status))
		sh_error(sh, "bcfg: cannot remove the option: %s\n", sys_status_text(status));
	return status;
}

static EFI_STATUS mv(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a)
{
	UINT16 *order, number;
	UINTN count, from, to;
	EFI_STATUS status;

	if (a->count != 4) {
		sh_error(sh, "bcfg: mv takes two positions: the option's and its new one\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!bcfg_position(sh, a->pos[2], &from) || !bcfg_position(sh, a->pos[3], &to))
		return EFI_INVALID_PARAMETER;
	status = bcfg_order_read(k, &order, &count);
	if (EFI_ERROR(status) || !bcfg_at(sh, k, order, count, from, &number)) {
		app_free(order);
		return EFI_ERROR(status) ? status : EFI_NOT_FOUND;
	}
	to = MIN(to, count - 1);
	if (from < to)
		mem_copy(&order[from], &order[from + 1], (to - from) * sizeof(UINT16));
	else
		mem_copy(&order[to + 1], &order[to], (from - to) * sizeof(UINT16));
	order[to] = number;
	status = bcfg_order_write(k, order, count);
	app_free(order);
	if (EFI_ERROR(status))
		sh_error(sh, "bcfg: cannot write %ls: %s\n", k->order, sys_status_text(status));
	return status;
}

static EFI_STATUS cmd_bcfg(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-v", SH_OPT_FLAG}, {"-opt", SH_OPT_FLAG}, {NULL}};
	const struct bcfg_kind *k = NULL;
	struct sh_args a;
	const CHAR16 *op;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	for (size_t i = 0; a.count && i < ARRAY_SIZE(kinds); i++)
		if (sh_eq_ascii(a.pos[0], kinds[i].word))
			k = &kinds[i];
	if (!k) {
		sh_error(sh, "bcfg: say 'boot' or 'driver' first (help bcfg)\n");
		return EFI_INVALID_PARAMETER;
	}
	if (sh_args_has(&a, "-opt"))
		return bcfg_opt(sh, k, &a);
	op = a.count > 1 ? a.pos[1] : u"";
	if (sh_eq_ascii(op, "dump"))
		return dump(sh, k, sh_args_has(&a, "-v"));
	if (sh_eq_ascii(op, "rm"))
		return rm(sh, k, &a);
	if (sh_eq_ascii(op, "mv"))
		return mv(sh, k, &a);
	if (sh_eq_ascii(op, "add") || sh_eq_ascii(op, "addp") || sh_eq_ascii(op, "addh"))
		return bcfg_add(sh, k, &a);
	if (sh_eq_ascii(op, "mod") || sh_eq_ascii(op, "modf") || sh_eq_ascii(op, "modp") ||
	    sh_eq_ascii(op, "modh"))
		return bcfg_modify(sh, k, &a);
	sh_error(sh,
		 "bcfg: '%ls' is not a bcfg operation (dump, add, addp, addh, rm, mv, "
		 "mod, modf, modp, modh, -opt)\n",
		 op);
	return EFI_INVALID_PARAMETER;
}

SH_COMMAND(bcfg, "bcfg", "Shows and changes the boot and driver options",
	   "bcfg boot|driver dump [-v]\n"
	   "bcfg boot|driver add|addp POS file \"description\"\n"
	   "bcfg boot|driver addh POS handle \"description\"\n"
	   "bcfg boot|driver rm POS\n"
	   "bcfg boot|driver mv POS NEWPOS\n"
	   "bcfg boot|driver mod POS \"description\"\n"
	   "bcfg boot|driver modf|modp POS file | modh POS handle\n"
	   "bcfg boot|driver -opt POS [file | \"text\"]\n"
	   "  Works on the boot options (Boot#### in BootOrder, tried in turn at start) or\n"
	   "  the driver options (Driver#### in DriverOrder, loaded before booting). POS is\n"
	   "  a position in the order, in hex, as dump numbers them.\n"
	   "  dump   lists the options: position, variable, description, device path, and\n"
	   "         whether there is optional data; -v adds attributes and the data in hex\n"
	   "  add    creates an option for a file (its full device path: the volume's, then\n"
	   "         the file's) and puts it at POS (past the end: last)\n"
	   "  addp   the same with a short path that starts at the partition (HD(...)),\n"
	   "         so that the option still works when the disk moves\n"
	   "  addh   an option for a device handle (dh numbers): its device path\n"
	   "  rm     deletes the option at POS and its variable\n"
	   "  mv     moves the option at POS to NEWPOS\n"
	   "  mod    changes the description; modf/modp/modh the file path\n"
	   "  -opt   sets the optional data handed to the program (LoadOptions): a file's\n"
	   "         bytes, or text as UCS-2 with its terminator; nothing removes it\n"
	   "  Examples:\n"
	   "    bcfg boot dump -v\n"
	   "    bcfg boot add 0 fs0:\\EFI\\tool.efi \"My tool\"\n"
	   "    bcfg boot mv 3 0\n"
	   "    bcfg boot -opt 0 \"-v quiet\"\n"
	   "    bcfg boot rm 0\n",
	   cmd_bcfg);
