/* SetVirtualAddressMap and ConvertPointer (UEFI 2.10, section 8.4): the OS tells where it
 * mapped the runtime ranges; runtime code converts its pointers while the call lasts. */
#include "../services.h"
#include "../mem/memmap.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

static bool virtual_mode;
static const UINT8 *conversion_map; /* only during SetVirtualAddressMap */
static UINTN conversion_count, conversion_stride;
/* The firmware image's pointer slots (runtime_pointer_slots_declare); read only during
 * SetVirtualAddressMap, in physical mode. */
static UINT64 slots_data;
static const UINT8 *slots_map;
static UINTN slots_map_size;

void runtime_pointer_slots_declare(UINT64 data, const UINT8 *map, UINTN map_size)
{
	slots_data = data;
	slots_map = map;
	slots_map_size = map_size;
}

static const EFI_MEMORY_DESCRIPTOR *descriptor_for(UINT64 address)
{
	for (UINTN i = 0; i < conversion_count; i++) {
		const EFI_MEMORY_DESCRIPTOR *d =
		    (const EFI_MEMORY_DESCRIPTOR *)(conversion_map + i * conversion_stride);
		UINT64 end = d->PhysicalStart + (d->NumberOfPages << EFI_PAGE_SHIFT);
		if ((d->Attribute & EFI_MEMORY_RUNTIME) && address >= d->PhysicalStart &&
		    address < end)
			return d;
	}
	return NULL;
}

/* Every runtime range of the firmware's map must have a virtual address in the OS's map. */
static bool all_runtime_ranges_mapped(void)
{
	size_t n;
	const struct mem_range *r = memmap_ranges(&n);

	for (size_t i = 0; i < n; i++) {
		const EFI_MEMORY_DESCRIPTOR *d;
		if (!(r[i].attribute & EFI_MEMORY_RUNTIME))
			continue;
		d = descriptor_for(r[i].start);
		if (!d ||
		    d->PhysicalStart + (d->NumberOfPages << EFI_PAGE_SHIFT) < mem_range_end(&r[i]))
			return false;
	}
	return true;
}

static void convert(void **pointer)
{
	const EFI_MEMORY_DESCRIPTOR *d;

	if (*pointer && (d = descriptor_for((UINT64)(uintptr_t)*pointer)))
		*pointer = (void *)(uintptr_t)(d->VirtualStart +
					       ((UINT64)(uintptr_t)*pointer - d->PhysicalStart));
}

static bool is_pointer_slot(void **pointer)
{
	UINT64 at = (UINT64)(uintptr_t)pointer, word;

	if (!slots_map || at < slots_data || (at - slots_data) % sizeof(UINT64))
		return false;
	word = (at - slots_data) / sizeof(UINT64);
	return word / 8 < slots_map_size && (slots_map[word / 8] >> (word % 8)) & 1;
}

/* The image's static data holds link-time addresses (function tables, the crypto library's
 * OID and algorithm tables, string pointers) that nobody converts by hand: each that points
 * into a runtime range moves with it. Last of all: the code after it must not follow them
 * while the OS still runs it at the physical addresses. */
static void convert_pointer_slots(void)
{
	for (UINTN i = 0; i < slots_map_size; i++)
		for (UINT32 bit = 0; bit < 8; bit++)
			if ((slots_map[i] >> bit) & 1)
				convert((void **)(uintptr_t)(slots_data +
							     (i * 8 + bit) * sizeof(UINT64)));
}

/* The services' entry points: the OS calls them through the table at their new addresses
 * (and the table itself moves with core_st->RuntimeServices). */
static void convert_runtime_services(void)
{
	void **first = (void **)&core_rt->GetTime, **last = (void **)&core_rt->QueryVariableInfo;

	for (void **entry = first; entry <= last; entry++)
		convert(entry);
	table_update_crc(&core_rt->Hdr);
}

EFI_STATUS EFIAPI efi_set_virtual_address_map(UINTN map_size, UINTN descriptor_size,
					      UINT32 descriptor_version,
					      EFI_MEMORY_DESCRIPTOR *virtual_map)
{
	if (!core_boot_services_exited || virtual_mode)
		return EFI_UNSUPPORTED;
	if (!virtual_map || descriptor_version != EFI_MEMORY_DESCRIPTOR_VERSION ||
	    descriptor_size < sizeof(EFI_MEMORY_DESCRIPTOR) || map_size % descriptor_size)
		return EFI_INVALID_PARAMETER;
	conversion_map = (const UINT8 *)virtual_map;
	conversion_stride = descriptor_size;
	conversion_count = map_size / descriptor_size;
	if (!all_runtime_ranges_mapped()) {
		conversion_count = 0;
		return EFI_NO_MAPPING;
	}
	/* Runtime drivers convert their own pointers from these notifications. */
	event_signal_group(&efi_event_group_virtual_address_change_guid);
	convert_runtime_services();
	convert((void **)&core_st->FirmwareVendor);
	convert((void **)&core_st->ConfigurationTable);
	convert((void **)&core_st->RuntimeServices);
	table_update_crc(&core_st->Hdr);
	convert_pointer_slots();
	conversion_count = 0;
	virtual_mode = true;
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI efi_convert_pointer(UINTN debug_disposition, VOID **address)
{
	const EFI_MEMORY_DESCRIPTOR *d;

	if (!address)
		return EFI_INVALID_PARAMETER;
	if (!*address)
		return (debug_disposition & EFI_OPTIONAL_PTR) ? EFI_SUCCESS : EFI_INVALID_PARAMETER;
	d = descriptor_for((UINT64)(uintptr_t)*address);
	if (!d)
		return EFI_NOT_FOUND;
	/* A slot of the image's map is converted once, with the others, at the end. */
	if (!is_pointer_slot(address))
		convert(address);
	return EFI_SUCCESS;
}

EFI_STATUS runtime_convert_pointer(void **address)
{
	return efi_convert_pointer(0, address);
}
