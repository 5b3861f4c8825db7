/* The boot options as variables: read into the boot page's store, written back from it. */
#include "boot_vars.h"
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/load_option.h>

#define NV_ATTRIBUTES                                                                              \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

/* A global variable in a new pool block. */
void *boot_var_read(const CHAR16 *name, UINTN *size, UINT32 *attributes)
{
	EFI_GUID *guid = (EFI_GUID *)&efi_global_variable_guid;
	void *data;

	*size = 0;
	if (app_rt->GetVariable((CHAR16 *)name, guid, NULL, size, NULL) != EFI_BUFFER_TOO_SMALL ||
	    !(data = app_alloc(*size ? *size : 1)))
		return NULL;
	if (EFI_ERROR(app_rt->GetVariable((CHAR16 *)name, guid, attributes, size, data))) {
		app_free(data);
		return NULL;
	}
	return data;
}

static EFI_STATUS var_write(const CHAR16 *name, UINTN size, const void *data)
{
	return app_rt->SetVariable((CHAR16 *)name, (EFI_GUID *)&efi_global_variable_guid,
				   NV_ATTRIBUTES, size, (void *)data);
}

static void option_name(UINT16 number, CHAR16 *name)
{
	char text[9];

	format_sn(text, sizeof(text), "Boot%04X", number);
	for (int i = 0; i < 9; i++)
		name[i] = (UINT8)text[i];
}

/* An option read and parsed: its bytes (pool) and parts, NULL when missing or malformed. */
static UINT8 *option_read(UINT16 number, UINTN *size, struct load_option *lo)
{
	CHAR16 name[9];
	UINT8 *data;

	option_name(number, name);
	data = boot_var_read(name, size, NULL);
	if (data && !load_option_parse(data, *size, lo)) {
		app_free(data);
		return NULL;
	}
	return data;
}

/* Reads the rows. */
EFI_STATUS boot_vars_load(struct boot_store *s)
{
	UINTN size;
	UINT16 *order = boot_var_read(u"BootOrder", &size, NULL), *timeout;

	mem_set(s, 0, sizeof(*s));
	for (UINTN i = 0; order && i < size / 2 && s->count < BOOT_ROWS; i++) {
		struct load_option lo;
		UINTN option_size;
		UINT8 *option = option_read(order[i], &option_size, &lo);

		s->number[s->count] = order[i];
		s->active[s->count++] = option && (lo.attributes & LOAD_OPTION_ACTIVE);
		app_free(option);
	}
	app_free(order);
	timeout = boot_var_read(u"Timeout", &size, NULL);
	if (timeout && size == 2)
		s->timeout = *timeout;
	app_free(timeout);
	return EFI_SUCCESS;
}

/* Sets or clears an option's ACTIVE bit when it differs. */
static EFI_STATUS set_active(UINT16 number, bool active)
{
	struct load_option lo;
	UINTN size;
	UINT8 *data = option_read(number, &size, &lo);
	UINT32 attributes;
	CHAR16 name[9];
	EFI_STATUS status = EFI_SUCCESS;

	if (!data) /* an order entry without its option: nothing to change */
		return EFI_SUCCESS;
	attributes =
	    active ? lo.attributes | LOAD_OPTION_ACTIVE : lo.attributes & ~LOAD_OPTION_ACTIVE;
	if (attributes != lo.attributes) {
		mem_copy(data, &attributes, 4); /* Attributes lead EFI_LOAD_OPTION (3.1.3) */
		option_name(number, name);
		status = var_write(name, size, data);
	}
	app_free(data);
	return status;
}

static EFI_STATUS write_order(const struct boot_store *s)
{
	UINTN old_size;
	UINT16 *old = boot_var_read(u"BootOrder", &old_size, NULL);
	size_t n = boot_store_order(s, old, old ? old_size / 2 : 0, NULL, 0);
	UINT16 *order = app_alloc(2 * n + 2);
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;

	if (order) {
		boot_store_order(s, old, old ? old_size / 2 : 0, order, n);
		/* No options and no BootOrder before: nothing to write (deleting the absent
		 * variable would answer EFI_NOT_FOUND). */
		status = n || old ? var_write(u"BootOrder", 2 * n, order) : EFI_SUCCESS;
	}
	app_free(order);
	app_free(old);
	return status;
}

/* Writes the store back. */
EFI_STATUS boot_vars_save(const struct boot_store *s)
{
	EFI_STATUS status = var_write(u"Timeout", 2, &s->timeout);
	CHAR16 name[9];

	for (unsigned i = 0; !EFI_ERROR(status) && i < s->count && i < BOOT_ROWS; i++) {
		if (s->remove[i]) {
			option_name(s->number[i], name);
			status = app_rt->SetVariable(name, (EFI_GUID *)&efi_global_variable_guid, 0,
						     0, NULL);
			if (status == EFI_NOT_FOUND) /* gone already: what was asked */
				status = EFI_SUCCESS;
		} else {
			status = set_active(s->number[i], s->active[i]);
		}
	}
	if (EFI_ERROR(status))
		return status;
	return write_order(s);
}

static void copy_ascii(CHAR16 *out, size_t units, const char *text)
{
	size_t n = 0;

	for (; n + 1 < units && text[n]; n++)
		out[n] = (UINT8)text[n];
	out[n] = 0;
}

/* An option's description. */
void boot_vars_description(UINT16 number, CHAR16 *out, size_t units)
{
	struct load_option lo;
	UINTN size;
	UINT8 *data = option_read(number, &size, &lo);
	size_t n = 0;

	/* The description may be unaligned in the variable's bytes. */
	for (; data && n + 1 < units && 2 * n + 2 < lo.description_size; n++)
		mem_copy(&out[n], (const UINT8 *)lo.description + 2 * n, 2);
	out[n] = 0;
	if (!out[0])
		copy_ascii(out, units, "(unreadable)");
	app_free(data);
}

/* The first number with neither a Boot#### nor an entry in BootOrder. */
static bool free_number(UINT16 *number)
{
	for (UINT32 v = 0; v <= 0xffff; v++) {
		CHAR16 name[9];
		UINTN size = 0;

		option_name((UINT16)v, name);
		if (app_rt->GetVariable(name, (EFI_GUID *)&efi_global_variable_guid, NULL, &size,
					NULL) == EFI_NOT_FOUND) {
			*number = (UINT16)v;
			return true;
		}
	}
	return false;
}

static EFI_STATUS append_order(UINT16 number)
{
	UINTN size;
	UINT16 *old = boot_var_read(u"BootOrder", &size, NULL);
	UINT16 *order = app_alloc(size + 2);
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;

	if (order) {
		if (old)
			mem_copy(order, old, size);
		order[size / 2] = number;
		status = var_write(u"BootOrder", (old ? size : 0) + 2, order);
	}
	app_free(order);
	app_free(old);
	return status;
}

/* A new option at the end of BootOrder. */
EFI_STATUS boot_vars_add(const EFI_DEVICE_PATH_PROTOCOL *path, const CHAR16 *description)
{
	struct load_option lo = {LOAD_OPTION_ACTIVE,
				 description,
				 2 * (str16_len(description) + 1),
				 path,
				 (UINT16)dp_size(path),
				 NULL,
				 0};
	UINTN size = load_option_size(&lo);
	UINT8 *data = app_alloc(size);
	CHAR16 name[9];
	UINT16 number;
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;

	if (!data)
		return status;
	load_option_write(&lo, data);
	status = EFI_OUT_OF_RESOURCES;
	if (free_number(&number)) {
		option_name(number, name);
		status = var_write(name, size, data);
	}
	if (!EFI_ERROR(status))
		status = append_order(number);
	app_free(data);
	return status;
}
