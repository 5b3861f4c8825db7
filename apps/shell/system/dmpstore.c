/* dmpstore: shows, deletes, saves and restores UEFI variables (UEFI Shell 2.2, dmpstore).
 *
 * The save file is a sequence of records, one per variable, each:
 *   UINT32 NameSize, UINT32 DataSize, CHAR16 Name[NameSize / 2] (with its terminator),
 *   EFI_GUID VendorGuid, UINT32 Attributes, UINT8 Data[DataSize],
 *   UINT32 Crc32 (CRC-32 of all the record's bytes before it),
 * little-endian and unaligned. */
#include "sys.h"
#include <ember/lib/crc32.h>
#include <ember/lib/guids.h>

enum dmp_mode { DMP_SHOW, DMP_SFO, DMP_DELETE, DMP_SAVE };

struct dmp {
	struct shell *sh;
	enum dmp_mode mode;
	const CHAR16 *pattern; /* NULL: every name */
	const EFI_GUID *guid;  /* NULL: every GUID */
	UINTN found;
	EFI_STATUS status; /* the first failure */
	UINT8 *save;	   /* DMP_SAVE: the file's bytes so far */
	UINTN save_len, save_cap;
};

static void fail(struct dmp *d, EFI_STATUS status)
{
	if (!EFI_ERROR(d->status))
		d->status = status;
}

static void show(struct dmp *d, const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes,
		 const UINT8 *data, UINTN size)
{
	char attrs[48];

	if (d->mode == DMP_SFO) {
		sh_print(d->sh, "VariableInfo,\"%ls\",\"%pG\",\"0x%X\",\"0x%X\",\"", name, guid,
			 attributes, (unsigned)size);
		for (UINTN i = 0; i < size; i++)
			sh_print(d->sh, "%02X", data[i]);
		sh_print(d->sh, "\"\n");
		return;
	}
	sh_print(d->sh, "Variable %s '%pG:%ls' DataSize = 0x%02X\n",
		 sys_var_attributes(attrs, attributes), guid, name, (unsigned)size);
	sys_hexdump(d->sh, 2, 0, data, size);
}

static bool save_put(struct dmp *d, const void *p, UINTN n)
{
	if (d->save_len + n > d->save_cap) {
		UINTN cap = MAX(d->save_cap * 2, d->save_len + n + 256);
		UINT8 *more = app_alloc(cap);
		if (!more)
			return false;
		if (d->save_len)
			mem_copy(more, d->save, d->save_len);
		app_free(d->save);
		d->save = more;
		d->save_cap = cap;
	}
	mem_copy(d->save + d->save_len, p, n);
	d->save_len += n;
	return true;
}

static void save(struct dmp *d, const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes,
		 const UINT8 *data, UINTN size)
{
	UINT32 name_size = (UINT32)str16_size(name), data_size = (UINT32)size, crc;
	UINTN start = d->save_len;
	bool ok = save_put(d, &name_size, 4) && save_put(d, &data_size, 4) &&
		  save_put(d, name, name_size) && save_put(d, guid, sizeof(*guid)) &&
		  save_put(d, &attributes, 4) && save_put(d, data, size);

	if (ok) {
		crc = crc32(d->save + start, d->save_len - start);
		ok = save_put(d, &crc, 4);
	}
	if (!ok)
		fail(d, EFI_OUT_OF_RESOURCES);
}

static bool visit(const CHAR16 *name, const EFI_GUID *guid, void *ctx)
{
	struct dmp *d = ctx;
	UINT32 attributes = 0;
	void *data;
	UINTN size;
	EFI_STATUS status;

	if ((d->guid && !guid_eq(d->guid, guid)) ||
	    (d->pattern && !sh_name_match(d->sh, name, d->pattern)))
		return true;
	d->found++;
	status = sys_var_read(name, guid, &attributes, &data, &size);
	if (EFI_ERROR(status)) {
		sh_error(d->sh, "dmpstore: cannot read %ls: %s\n", name, sys_status_text(status));
		fail(d, status);
		return !sh_interrupted(d->sh);
	}
	if (d->mode == DMP_DELETE) {
		status = app_rt->SetVariable((CHAR16 *)name, (EFI_GUID *)guid, attributes, 0, NULL);
		sh_print(d->sh, "Delete variable '%pG:%ls': %s\n", guid, name,
			 status == EFI_SUCCESS ? "Success" : sys_status_text(status));
		if (EFI_ERROR(status))
			fail(d, status);
	} else if (d->mode == DMP_SAVE) {
		save(d, name, guid, attributes, data, size);
	} else {
		show(d, name, guid, attributes, data, size);
	}
	app_free(data);
	return !sh_interrupted(d->sh);
}

/* ---- Loading a saved file ---- */

static UINT32 get32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

/* Sets the variables of one record at *pos; false when the file is malformed there. */
static bool load_record(struct dmp *d, const UINT8 *data, UINTN size, UINTN *pos)
{
	UINTN p = *pos, name_size, data_size, total;
	CHAR16 *name;
	EFI_GUID guid;
	UINT32 attributes;
	EFI_STATUS status;

	if (size - p < 8)
		return false;
	name_size = get32(data + p);
	data_size = get32(data + p + 4);
	total = 8 + name_size + sizeof(EFI_GUID) + 4 + data_size + 4;
	if (name_size < 2 || name_size % 2 || name_size > size || data_size > size ||
	    total > size - p || crc32(data + p, total - 4) != get32(data + p + total - 4))
		return false;
	name = app_alloc(name_size);
	if (!name)
		return false;
	mem_copy(name, data + p + 8, name_size);
	name[name_size / 2 - 1] = 0;
	mem_copy(&guid, data + p + 8 + name_size, sizeof(guid));
	attributes = get32(data + p + 8 + name_size + sizeof(guid));
	if ((!d->guid || guid_eq(d->guid, &guid)) &&
	    (!d->pattern || sh_name_match(d->sh, name, d->pattern))) {
		d->found++;
		status = app_rt->SetVariable(name, &guid, attributes, data_size,
					     (void *)(data + p + total - 4 - data_size));
		if (EFI_ERROR(status)) {
			sh_error(d->sh, "dmpstore: cannot set %ls: %s\n", name,
				 sys_status_text(status));
			fail(d, status);
		}
	}
	app_free(name);
	*pos = p + total;
	return true;
}

static EFI_STATUS load_file(struct dmp *d, const CHAR16 *file)
{
	void *data;
	UINTN size, pos = 0;
	EFI_STATUS status = sh_read_file(d->sh, file, &data, &size);

	if (EFI_ERROR(status)) {
		sh_error(d->sh, "dmpstore: cannot read %ls: %s\n", file, sh_status_text(status));
		return status;
	}
	sh_print(d->sh, "Load and set variables from file: %ls.\n", file);
	while (pos < size)
		if (!load_record(d, data, size, &pos)) {
			sh_error(d->sh,
				 "dmpstore: %ls: not a variable file (bad record at byte "
				 "%u)\n",
				 file, (unsigned)pos);
			fail(d, EFI_VOLUME_CORRUPTED);
			break;
		}
	app_free(data);
	return d->status;
}

/* ---- The command ---- */

static bool parse_scope(struct shell *sh, const struct sh_args *a, struct dmp *d, EFI_GUID *g)
{
	const CHAR16 *text = sh_args_value(a, "-guid");

	if (a->count > 1) {
		sh_error(sh, "dmpstore: name one variable (or a pattern)\n");
		return false;
	}
	if (sh_args_has(a, "-all") && text) {
		sh_error(sh, "dmpstore: choose -all or -guid\n");
		return false;
	}
	if (text && !sys_parse_guid(sh, text, g)) {
		sh_error(sh, "dmpstore: '%ls' is not a GUID\n", text);
		return false;
	}
	d->pattern = a->count ? a->pos[0] : NULL;
	d->guid = sh_args_has(a, "-all") ? NULL : text ? g : &efi_global_variable_guid;
	return true;
}

static void report_none(struct dmp *d)
{
	if (d->pattern)
		sh_error(d->sh, "dmpstore: no variable matches '%ls'\n", d->pattern);
	else
		sh_error(d->sh, "dmpstore: no variables found\n");
}

/* Shows, deletes or saves the variables in scope. */
static EFI_STATUS walk(struct dmp *d, const CHAR16 *save_file)
{
	EFI_STATUS status;

	if (d->mode == DMP_SFO)
		sh_print(d->sh, "ShellCommand,\"dmpstore\"\n");
	fail(d, sys_var_each(visit, d));
	if (d->mode == DMP_SAVE && !EFI_ERROR(d->status) && d->found) {
		sh_print(d->sh, "Save variable to file: %ls.\n", save_file);
		status = sh_write_file(d->sh, save_file, d->save, d->save_len);
		if (EFI_ERROR(status)) {
			sh_error(d->sh, "dmpstore: cannot write %ls: %s\n", save_file,
				 sh_status_text(status));
			fail(d, status);
		}
	}
	app_free(d->save);
	if (!d->found && !EFI_ERROR(d->status)) {
		report_none(d);
		return EFI_NOT_FOUND;
	}
	return d->status;
}

static EFI_STATUS cmd_dmpstore(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-all", SH_OPT_FLAG},
					     {"-guid", SH_OPT_VALUE},
					     {"-d", SH_OPT_FLAG},
					     {"-s", SH_OPT_VALUE},
					     {"-l", SH_OPT_VALUE},
					     {"-sfo", SH_OPT_FLAG},
					     {NULL}};
	struct sh_args a;
	struct dmp d = {.sh = sh};
	EFI_GUID g;
	const CHAR16 *file;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (sh_args_has(&a, "-d") + sh_args_has(&a, "-s") + sh_args_has(&a, "-l") +
		sh_args_has(&a, "-sfo") >
	    1) {
		sh_error(sh, "dmpstore: choose one of -d, -s, -l and -sfo\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!parse_scope(sh, &a, &d, &g))
		return EFI_INVALID_PARAMETER;
	if ((file = sh_args_value(&a, "-l"))) {
		status = load_file(&d, file);
		if (!EFI_ERROR(status) && !d.found)
			report_none(&d);
		return EFI_ERROR(status) ? status : d.found ? EFI_SUCCESS : EFI_NOT_FOUND;
	}
	d.mode = sh_args_has(&a, "-d")	   ? DMP_DELETE
		 : sh_args_has(&a, "-s")   ? DMP_SAVE
		 : sh_args_has(&a, "-sfo") ? DMP_SFO
					   : DMP_SHOW;
	return walk(&d, sh_args_value(&a, "-s"));
}

SH_COMMAND(dmpstore, "dmpstore", "Shows, deletes, saves and loads UEFI variables",
	   "dmpstore [-all | [name] [-guid GUID]] [-d | -s file | -l file | -sfo]\n"
	   "  Shows UEFI variables: for each its attributes (NV non-volatile, BS boot\n"
	   "  services, RT runtime, HR hardware error record, AT time-based authenticated),\n"
	   "  GUID, name and size, then its bytes in hex.\n"
	   "  (nothing)   the variables of the global GUID (8BE4DF61-...: Boot####, ...)\n"
	   "  name        the variables so named; wildcards * ? [] are allowed\n"
	   "  -guid GUID  the variables of this GUID (text, or a name like ShellVariable)\n"
	   "  -all        every variable (or every one so named), whatever its GUID\n"
	   "  -d          deletes the variables instead of showing them\n"
	   "  -s file     saves them to a file (records: NameSize, DataSize, Name, GUID,\n"
	   "              Attributes, Data, CRC-32)\n"
	   "  -l file     sets the variables saved in a file (those matching name/-guid)\n"
	   "  -sfo        standard-format output: VariableInfo,\"name\",\"guid\",\"attributes\",\n"
	   "              \"size\",\"hex data\"\n"
	   "  Examples:\n"
	   "    dmpstore BootOrder\n"
	   "    dmpstore Boot* -s fs0:\\boot.bin\n"
	   "    dmpstore -all -b\n",
	   cmd_dmpstore);
