/* EFI_SYSTEM_TABLE_POINTER (UEFI 2.10, 18.4.2): a page on a 4 MiB boundary holding the
 * signature "IBI SYST" and the system table's address, so that a debugger attached to a
 * stopped machine finds the system table (and through it EFI_DEBUG_IMAGE_INFO_TABLE) by
 * scanning memory at 4 MiB steps. */
#define LOG_PREFIX "debug-image: "
#include "image.h"
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/crc32.h>
#include <ember/lib/str.h>
#include <efi/debug_image_info.h>

#define ALIGN_PAGES (EFI_SYSTEM_TABLE_POINTER_ALIGNMENT / EFI_PAGE_SIZE)

EFI_SYSTEM_TABLE_POINTER *image_system_table_pointer;

EFI_STATUS image_publish_system_table_pointer(void)
{
	EFI_PHYSICAL_ADDRESS base, aligned, end;
	EFI_SYSTEM_TABLE_POINTER *p;
	EFI_STATUS status;

	/* One aligned page out of an allocation one alignment larger; the rest goes back. */
	status = mem_allocate_pages(AllocateAnyPages, EfiBootServicesData, ALIGN_PAGES + 1, &base);
	if (EFI_ERROR(status)) {
		log_debug("no memory for the system table pointer: %r\n", status);
		return status;
	}
	aligned = (base + EFI_SYSTEM_TABLE_POINTER_ALIGNMENT - 1) &
		  ~(EFI_SYSTEM_TABLE_POINTER_ALIGNMENT - 1);
	end = base + (ALIGN_PAGES + 1) * EFI_PAGE_SIZE;
	if (aligned > base)
		mem_free_pages(base, (aligned - base) / EFI_PAGE_SIZE);
	if (end > aligned + EFI_PAGE_SIZE)
		mem_free_pages(aligned + EFI_PAGE_SIZE, (end - aligned) / EFI_PAGE_SIZE - 1);
	p = (EFI_SYSTEM_TABLE_POINTER *)(uintptr_t)aligned;
	mem_set(p, 0, EFI_PAGE_SIZE);
	p->Signature = EFI_SYSTEM_TABLE_SIGNATURE;
	p->EfiSystemTableBase = (EFI_PHYSICAL_ADDRESS)(uintptr_t)core_st;
	p->Crc32 = crc32(p, sizeof(*p));
	image_system_table_pointer = p;
	return EFI_SUCCESS;
}

EMBER_INIT(INIT_EARLY, image_publish_system_table_pointer);
