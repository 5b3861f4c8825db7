/* bcfg add, addp, addh, mod, modf, modp, modh and -opt: making and changing options. */
#include "bcfg_cmd.h"
#include "../../lib/devpath.h"
#include <ember/lib/guids.h>

/* The first node of a path that is a hard-disk partition, or NULL. */
static const EFI_DEVICE_PATH_PROTOCOL *partition_node(const EFI_DEVICE_PATH_PROTOCOL *p)
{
	for (; !dp_is_end(p); p = dp_next(p))
		if (p->Type == MEDIA_DEVICE_PATH && p->SubType == MEDIA_HARDDRIVE_DP)
			return p;
	return NULL;
}

static EFI_DEVICE_PATH_PROTOCOL *copy_path(const EFI_DEVICE_PATH_PROTOCOL *p)
{
	UINTN size = dp_size(p);
	EFI_DEVICE_PATH_PROTOCOL *copy = size ? app_alloc(size) : NULL;

	if (copy)
		mem_copy(copy, p, size);
	return copy;
}

/* The device path of a file: all of it (how 'f') or from its partition on (how 'p'). */
static EFI_DEVICE_PATH_PROTOCOL *file_path(struct shell *sh, const CHAR16 *name, char how)
{
	EFI_FILE_PROTOCOL *f;
	EFI_DEVICE_PATH_PROTOCOL *full, *part;
	const EFI_DEVICE_PATH_PROTOCOL *hd;
	EFI_STATUS status = sh_open(sh, name, EFI_FILE_MODE_READ, 0, &f);

	if (EFI_ERROR(status)) {
		sh_error(sh, "bcfg: %ls: %s\n", name, sh_status_text(status));
		return NULL;
	}
	f->Close(f);
	full = sh_file_device_path(sh, name);
	if (!full) {
		sh_error(sh, "bcfg: %ls has no device path\n", name);
		return NULL;
	}
	if (how != 'p')
		return full;
	hd = partition_node(full);
	if (!hd) {
		sh_error(sh, "bcfg: %ls is not on a disk partition; use add for a full path\n",
			 name);
		app_free(full);
		return NULL;
	}
	part = copy_path(hd);
	app_free(full);
	return part;
}

/* The path an operation names: a file ("add", "modf"), a file from its partition
 * ("addp", "modp") or a handle's device path ("addh", "modh"). */
static EFI_DEVICE_PATH_PROTOCOL *path_for(struct shell *sh, const CHAR16 *op, const CHAR16 *what)
{
	UINTN n = str16_len(op);
	EFI_HANDLE h;
	EFI_DEVICE_PATH_PROTOCOL *p;

	if (op[n - 1] == 'h' || op[n - 1] == 'H') {
		if (!(h = sys_handle_arg(sh, "bcfg", what)))
			return NULL;
		if (!(p = sys_protocol(h, &efi_device_path_protocol_guid))) {
			sh_error(sh, "bcfg: handle %ls has no device path\n", what);
			return NULL;
		}
		return copy_path(p);
	}
	return file_path(sh, what, op[n - 1] == 'p' || op[n - 1] == 'P' ? 'p' : 'f');
}

/* Puts number at *pos in the order (past its end: last, and *pos says where). */
static EFI_STATUS order_insert(const struct bcfg_kind *k, UINTN *at, UINT16 number)
{
	UINT16 *order, *bigger;
	UINTN count, pos;
	EFI_STATUS status = bcfg_order_read(k, &order, &count);

	if (EFI_ERROR(status))
		return status;
	bigger = app_alloc((count + 1) * sizeof(UINT16));
	if (!bigger) {
		app_free(order);
		return EFI_OUT_OF_RESOURCES;
	}
	pos = *at = MIN(*at, count);
	if (pos)
		mem_copy(bigger, order, pos * sizeof(UINT16));
	bigger[pos] = number;
	if (count > pos)
		mem_copy(&bigger[pos + 1], &order[pos], (count - pos) * sizeof(UINT16));
	status = bcfg_order_write(k, bigger, count + 1);
	app_free(order);
	app_free(bigger);
	return status;
}

EFI_STATUS bcfg_add(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a)
{
	EFI_DEVICE_PATH_PROTOCOL *path;
	struct load_option lo;
	CHAR16 name[16];
	UINTN pos;
	UINT16 number;
	EFI_STATUS status;

	if (a->count != 5) {
		sh_error(sh, "bcfg: %ls takes a position, a %s and a description\n", a->pos[1],
			 sh_eq_ascii(a->pos[1], "addh") ? "handle" : "file");
		return EFI_INVALID_PARAMETER;
	}
	if (!bcfg_position(sh, a->pos[2], &pos) || !(path = path_for(sh, a->pos[1], a->pos[3])))
		return EFI_INVALID_PARAMETER;
	lo = (struct load_option){LOAD_OPTION_ACTIVE,
				  a->pos[4],
				  str16_size(a->pos[4]),
				  path,
				  (UINT16)dp_size(path),
				  NULL,
				  0};
	status = bcfg_free_number(k, &number);
	if (!EFI_ERROR(status))
		status = bcfg_option_write(k, number, &lo);
	if (!EFI_ERROR(status)) {
		status = order_insert(k, &pos, number);
		if (EFI_ERROR(status))
			bcfg_option_delete(k, number);
	}
	app_free(path);
	if (EFI_ERROR(status)) {
		sh_error(sh, "bcfg: cannot add the option: %s\n", sys_status_text(status));
		return status;
	}
	bcfg_var_name(name, k, number);
	sh_print(sh, "Target = %04X: %ls added at position %X.\n", number, name, (unsigned)pos);
	return EFI_SUCCESS;
}

/* Reads the option at a position for changing it. */
static EFI_STATUS option_at(struct shell *sh, const struct bcfg_kind *k, const CHAR16 *text,
			    struct bcfg_option *o)
{
	UINT16 *order, number;
	UINTN count, pos;
	EFI_STATUS status;

	if (!bcfg_position(sh, text, &pos))
		return EFI_INVALID_PARAMETER;
	status = bcfg_order_read(k, &order, &count);
	if (EFI_ERROR(status) || !bcfg_at(sh, k, order, count, pos, &number)) {
		app_free(order);
		return EFI_ERROR(status) ? status : EFI_NOT_FOUND;
	}
	app_free(order);
	status = bcfg_option_read(k, number, o);
	if (EFI_ERROR(status))
		sh_error(sh, "bcfg: cannot read the option: %s\n",
			 status == EFI_VOLUME_CORRUPTED ? "not a valid load option"
							: sys_status_text(status));
	return status;
}

EFI_STATUS bcfg_modify(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a)
{
	struct bcfg_option o;
	struct load_option lo;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	EFI_STATUS status;

	if (a->count != 4) {
		sh_error(sh, "bcfg: %ls takes a position and a %s\n", a->pos[1],
			 sh_eq_ascii(a->pos[1], "mod") ? "description" : "file or handle");
		return EFI_INVALID_PARAMETER;
	}
	status = option_at(sh, k, a->pos[2], &o);
	if (EFI_ERROR(status))
		return status;
	lo = o.lo;
	if (sh_eq_ascii(a->pos[1], "mod")) {
		lo.description = a->pos[3];
		lo.description_size = str16_size(a->pos[3]);
	} else if ((path = path_for(sh, a->pos[1], a->pos[3]))) {
		/* The option's other paths (for the OS) are dropped with the old first one. */
		lo.file_path = path;
		lo.file_path_size = (UINT16)dp_size(path);
	} else {
		bcfg_option_free(&o);
		return EFI_INVALID_PARAMETER;
	}
	status = bcfg_option_write(k, o.number, &lo);
	if (EFI_ERROR(status))
		sh_error(sh, "bcfg: cannot write the option: %s\n", sys_status_text(status));
	app_free(path);
	bcfg_option_free(&o);
	return status;
}

/* The optional data an argument stands for: a file's bytes, else the text in UCS-2
 * with its terminator (what a program reading LoadOptions as a command line wants). */
static EFI_STATUS opt_data(struct shell *sh, const CHAR16 *arg, void **data, UINTN *size)
{
	EFI_FILE_PROTOCOL *f;

	if (!EFI_ERROR(sh_open(sh, arg, EFI_FILE_MODE_READ, 0, &f))) {
		f->Close(f);
		return sh_read_file(sh, arg, data, size);
	}
	*size = str16_size(arg);
	*data = app_alloc(*size);
	if (!*data)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(*data, arg, *size);
	return EFI_SUCCESS;
}

EFI_STATUS bcfg_opt(struct shell *sh, const struct bcfg_kind *k, const struct sh_args *a)
{
	struct bcfg_option o;
	struct load_option lo;
	void *data = NULL;
	UINTN size = 0;
	EFI_STATUS status;

	if (a->count < 2 || a->count > 3) {
		sh_error(sh, "bcfg: -opt takes a position and optionally a file or text\n");
		return EFI_INVALID_PARAMETER;
	}
	status = option_at(sh, k, a->pos[1], &o);
	if (EFI_ERROR(status))
		return status;
	if (a->count == 3)
		status = opt_data(sh, a->pos[2], &data, &size);
	if (!EFI_ERROR(status)) {
		lo = o.lo;
		lo.optional_data = data;
		lo.optional_size = size;
		status = bcfg_option_write(k, o.number, &lo);
	}
	if (EFI_ERROR(status))
		sh_error(sh, "bcfg: cannot set the optional data: %s\n", sys_status_text(status));
	app_free(data);
	bcfg_option_free(&o);
	return status;
}
