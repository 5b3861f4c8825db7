/* Reading and writing load options and the order variables (UEFI 2.10, 3.1, 3.3). */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define OPTION_ATTRIBUTES                                                                          \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

void bds_option_name(CHAR16 name[16], const CHAR16 *kind, UINT16 number)
{
	char text[16];

	format_sn(text, sizeof(text), "%ls%04X", kind, number);
	utf8_to_ucs2(name, 16, text, str8_len(text));
}

bool bds_option_read(const CHAR16 *kind, UINT16 number, struct bds_option *option)
{
	CHAR16 name[16];
	const char *problem;
	EFI_STATUS status;

	bds_option_name(name, kind, number);
	option->number = number;
	option->kind = kind;
	status = variable_read(name, &efi_global_variable_guid, &option->data, &option->size, NULL);
	if (EFI_ERROR(status)) {
		log_debug("%ls: cannot read it: %r\n", name, status);
		return false;
	}
	problem = load_option_problem(option->data, option->size, &option->lo);
	if (problem) {
		log_debug("%ls: %s\n", name, problem);
		pool_free(option->data);
		option->data = NULL;
		return false;
	}
	return true;
}

void bds_option_free(struct bds_option *option)
{
	pool_free(option->data);
	option->data = NULL;
}

UINT16 *bds_order_read(const CHAR16 *name, UINTN *count)
{
	void *data;
	UINTN size;
	EFI_STATUS status = variable_read(name, &efi_global_variable_guid, &data, &size, NULL);

	*count = 0;
	if (EFI_ERROR(status)) {
		if (status != EFI_NOT_FOUND)
			log_debug("%ls: cannot read it: %r\n", name, status);
		return NULL;
	}
	if (size % sizeof(UINT16))
		log_debug("%ls: %llu bytes, the last one ignored\n", name,
			  (unsigned long long)size);
	*count = size / sizeof(UINT16);
	return data;
}

EFI_STATUS bds_order_write(const CHAR16 *name, const UINT16 *order, UINTN count)
{
	EFI_STATUS status = variable_set(name, &efi_global_variable_guid, OPTION_ATTRIBUTES,
					 count * sizeof(UINT16), order);

	if (EFI_ERROR(status))
		log_debug("%ls: cannot write it: %r\n", name, status);
	return status;
}

EFI_STATUS bds_option_create(const CHAR16 *kind, const struct load_option *lo, UINT16 *number)
{
	UINTN size = load_option_size(lo);
	void *data = pool_alloc(size);
	CHAR16 name[16];
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;
	UINT32 n;

	if (!data) {
		log_debug("no memory for a new %ls option\n", kind);
		return status;
	}
	load_option_write(lo, data);
	for (n = 0; n <= 0xffff; n++) {
		UINTN probe = 0;
		bds_option_name(name, kind, (UINT16)n);
		if (variable_get(name, &efi_global_variable_guid, NULL, &probe, NULL) ==
		    EFI_NOT_FOUND)
			break;
	}
	if (n > 0xffff) {
		log_debug("no free %ls#### number\n", kind);
	} else {
		status =
		    variable_set(name, &efi_global_variable_guid, OPTION_ATTRIBUTES, size, data);
		if (EFI_ERROR(status))
			log_debug("%ls: cannot write it: %r\n", name, status);
		*number = (UINT16)n;
	}
	pool_free(data);
	return status;
}

EFI_STATUS bds_option_delete(const CHAR16 *kind, UINT16 number)
{
	CHAR16 name[16];

	bds_option_name(name, kind, number);
	return variable_set(name, &efi_global_variable_guid, 0, 0, NULL);
}
