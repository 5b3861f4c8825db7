/* The variable services for firmware code (include/ember/core/core.h). */
#include "../services.h"

EFI_STATUS variable_get(const CHAR16 *name, const EFI_GUID *guid, UINT32 *attributes, UINTN *size,
			void *data)
{
	return efi_get_variable((CHAR16 *)name, (EFI_GUID *)guid, attributes, size, data);
}

EFI_STATUS variable_set(const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes, UINTN size,
			const void *data)
{
	return efi_set_variable((CHAR16 *)name, (EFI_GUID *)guid, attributes, size, (void *)data);
}

EFI_STATUS variable_read(const CHAR16 *name, const EFI_GUID *guid, void **data, UINTN *size,
			 UINT32 *attributes)
{
	UINTN length = 0;
	EFI_STATUS status = variable_get(name, guid, attributes, &length, NULL);

	*data = NULL;
	if (status != EFI_BUFFER_TOO_SMALL)
		return EFI_ERROR(status) ? status : EFI_NOT_FOUND;
	*data = pool_alloc(length ? length : 1);
	if (!*data)
		return EFI_OUT_OF_RESOURCES;
	status = variable_get(name, guid, attributes, &length, *data);
	if (EFI_ERROR(status)) {
		pool_free(*data);
		*data = NULL;
		return status;
	}
	*size = length;
	return EFI_SUCCESS;
}
