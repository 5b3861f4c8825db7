/* Load option variables for bcfg (UEFI 2.10, 3.1.3 and 3.3): Boot####/Driver#### hold an
 * EFI_LOAD_OPTION, BootOrder/DriverOrder an array of UINT16 option numbers. */
#include "bcfg.h"
#include <ember/lib/guids.h>

#define OPTION_ATTRIBUTES                                                                          \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

void bcfg_var_name(CHAR16 out[16], const struct bcfg_kind *k, UINT16 number)
{
	static const char hex[] = "0123456789ABCDEF";
	UINTN n = str16_len(k->prefix);

	mem_copy(out, k->prefix, n * sizeof(CHAR16));
	for (int i = 0; i < 4; i++)
		out[n + i] = (CHAR16)hex[(number >> (12 - 4 * i)) & 15];
	out[n + 4] = 0;
}

EFI_STATUS bcfg_order_read(const struct bcfg_kind *k, UINT16 **order, UINTN *count)
{
	void *data;
	UINTN size;
	UINT32 attributes;
	EFI_STATUS status =
	    sys_var_read(k->order, &efi_global_variable_guid, &attributes, &data, &size);

	*order = NULL;
	*count = 0;
	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return status;
	*order = data;
	*count = size / sizeof(UINT16);
	return EFI_SUCCESS;
}

EFI_STATUS bcfg_order_write(const struct bcfg_kind *k, const UINT16 *order, UINTN count)
{
	return app_rt->SetVariable((CHAR16 *)k->order, (EFI_GUID *)&efi_global_variable_guid,
				   OPTION_ATTRIBUTES, count * sizeof(UINT16), (void *)order);
}

EFI_STATUS bcfg_option_read(const struct bcfg_kind *k, UINT16 number, struct bcfg_option *o)
{
	CHAR16 name[16];
	UINT32 attributes;
	EFI_STATUS status;

	*o = (struct bcfg_option){.number = number};
	bcfg_var_name(name, k, number);
	status = sys_var_read(name, &efi_global_variable_guid, &attributes, &o->data, &o->size);
	if (EFI_ERROR(status))
		return status;
	if (!load_option_parse(o->data, o->size, &o->lo)) {
		bcfg_option_free(o);
		return EFI_VOLUME_CORRUPTED;
	}
	o->description = app_alloc(o->lo.description_size);
	if (!o->description) {
		bcfg_option_free(o);
		return EFI_OUT_OF_RESOURCES;
	}
	mem_copy(o->description, o->lo.description, o->lo.description_size);
	return EFI_SUCCESS;
}

void bcfg_option_free(struct bcfg_option *o)
{
	app_free(o->data);
	app_free(o->description);
	*o = (struct bcfg_option){0};
}

EFI_STATUS bcfg_option_write(const struct bcfg_kind *k, UINT16 number, const struct load_option *lo)
{
	CHAR16 name[16];
	UINTN size = load_option_size(lo);
	void *data = app_alloc(size);
	EFI_STATUS status;

	if (!data)
		return EFI_OUT_OF_RESOURCES;
	load_option_write(lo, data);
	bcfg_var_name(name, k, number);
	status = app_rt->SetVariable(name, (EFI_GUID *)&efi_global_variable_guid, OPTION_ATTRIBUTES,
				     size, data);
	app_free(data);
	return status;
}

EFI_STATUS bcfg_option_delete(const struct bcfg_kind *k, UINT16 number)
{
	CHAR16 name[16];

	bcfg_var_name(name, k, number);
	return app_rt->SetVariable(name, (EFI_GUID *)&efi_global_variable_guid, 0, 0, NULL);
}

EFI_STATUS bcfg_free_number(const struct bcfg_kind *k, UINT16 *number)
{
	for (UINT32 n = 0; n <= 0xffff; n++) {
		CHAR16 name[16];
		UINTN size = 0;
		UINT32 attributes;
		EFI_STATUS status;
		bcfg_var_name(name, k, (UINT16)n);
		status = app_rt->GetVariable(name, (EFI_GUID *)&efi_global_variable_guid,
					     &attributes, &size, NULL);
		if (status == EFI_NOT_FOUND) {
			*number = (UINT16)n;
			return EFI_SUCCESS;
		}
	}
	return EFI_OUT_OF_RESOURCES;
}
