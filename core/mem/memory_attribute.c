/* EFI_MEMORY_ATTRIBUTE_PROTOCOL (UEFI 2.10, section 37.7): programs read and change the
 * access attributes of pages (shim and GRUB protect the images they load themselves, the
 * Linux EFI stub makes the memory it moved its kernel to executable). The checks of the
 * spec's arguments are here; the work is mem_protect and mem_get_protection. */
#define LOG_PREFIX "mem: "
#include "../services.h"
#include <ember/lib/guids.h>
#include <efi/protocol/memory_attribute.h>

#define ACCESS_ATTRIBUTES (EFI_MEMORY_RP | EFI_MEMORY_RO | EFI_MEMORY_XP)

/* The checks every function makes: whole pages, at least one, inside the address space.
 * The spec asks for page granularity; a range that wraps holds bytes no processor has. */
static EFI_STATUS check_range(EFI_PHYSICAL_ADDRESS base, UINT64 length)
{
	if (length == 0 || (base & EFI_PAGE_MASK) || (length & EFI_PAGE_MASK))
		return EFI_INVALID_PARAMETER;
	if (base + length < base)
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

/* Set and Clear take access attributes only, at least one of them. */
static EFI_STATUS check_change(EFI_PHYSICAL_ADDRESS base, UINT64 length, UINT64 attributes)
{
	if (attributes == 0 || (attributes & ~ACCESS_ATTRIBUTES))
		return EFI_INVALID_PARAMETER;
	return check_range(base, length);
}

static EFI_STATUS EFIAPI get_memory_attributes(EFI_MEMORY_ATTRIBUTE_PROTOCOL *this,
					       EFI_PHYSICAL_ADDRESS base, UINT64 length,
					       UINT64 *attributes)
{
	EFI_STATUS status = check_range(base, length);

	if (!attributes)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status))
		return status;
	return mem_get_protection(base, length >> EFI_PAGE_SHIFT, attributes);
}

static EFI_STATUS EFIAPI set_memory_attributes(EFI_MEMORY_ATTRIBUTE_PROTOCOL *this,
					       EFI_PHYSICAL_ADDRESS base, UINT64 length,
					       UINT64 attributes)
{
	EFI_STATUS status = check_change(base, length, attributes);

	if (EFI_ERROR(status))
		return status;
	return mem_protect(base, length >> EFI_PAGE_SHIFT, attributes, 0);
}

static EFI_STATUS EFIAPI clear_memory_attributes(EFI_MEMORY_ATTRIBUTE_PROTOCOL *this,
						 EFI_PHYSICAL_ADDRESS base, UINT64 length,
						 UINT64 attributes)
{
	EFI_STATUS status = check_change(base, length, attributes);

	if (EFI_ERROR(status))
		return status;
	return mem_protect(base, length >> EFI_PAGE_SHIFT, 0, attributes);
}

static EFI_MEMORY_ATTRIBUTE_PROTOCOL memory_attribute = {
    .GetMemoryAttributes = get_memory_attributes,
    .SetMemoryAttributes = set_memory_attributes,
    .ClearMemoryAttributes = clear_memory_attributes,
};

EFI_STATUS mem_attribute_install(void)
{
	EFI_HANDLE handle = NULL;

	return protocol_install(&handle, &efi_memory_attribute_protocol_guid, &memory_attribute);
}
