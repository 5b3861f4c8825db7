/* The BGRT and a rebuilt RSDT (see acpi_bgrt.h). */
#include "acpi_bgrt.h"
#include "../../common/acpi_tables.h"
#include <ember/lib/str.h>

/* The header of a new table: OEM fields of like, the rest given. */
static void header(EFI_ACPI_DESCRIPTION_HEADER *h, const EFI_ACPI_DESCRIPTION_HEADER *like,
		   const char *signature, UINT32 length, UINT8 revision)
{
	*h = *like;
	mem_copy(h->Signature, signature, 4);
	h->Length = length;
	h->Revision = revision;
	h->Checksum = 0;
}

void acpi_build_rsdt(void *buffer, const EFI_ACPI_DESCRIPTION_HEADER *like, const UINT64 *tables,
		     UINTN count)
{
	EFI_ACPI_DESCRIPTION_HEADER h;
	UINT8 *p = buffer;

	header(&h, like, EFI_ACPI_RSDT_SIGNATURE, (UINT32)ACPI_RSDT_SIZE(count),
	       EFI_ACPI_RSDT_REVISION);
	mem_copy(p, &h, sizeof(h));
	for (UINTN i = 0; i < count; i++) {
		UINT32 entry = (UINT32)tables[i];

		mem_copy(p + sizeof(h) + 4 * i, &entry, 4);
	}
	p[offsetof(EFI_ACPI_DESCRIPTION_HEADER, Checksum)] = acpi_checksum(p, h.Length);
}

void acpi_build_bgrt(EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *bgrt,
		     const EFI_ACPI_DESCRIPTION_HEADER *like, UINT64 image_address, UINT32 x,
		     UINT32 y)
{
	mem_set(bgrt, 0, sizeof(*bgrt));
	header(&bgrt->Header, like, EFI_ACPI_BGRT_SIGNATURE, sizeof(*bgrt), EFI_ACPI_BGRT_REVISION);
	bgrt->Version = EFI_ACPI_BGRT_VERSION;
	bgrt->Status = EFI_ACPI_BGRT_STATUS_DISPLAYED;
	bgrt->ImageType = EFI_ACPI_BGRT_IMAGE_TYPE_BMP;
	bgrt->ImageAddress = image_address;
	bgrt->ImageOffsetX = x;
	bgrt->ImageOffsetY = y;
	bgrt->Header.Checksum = acpi_checksum(bgrt, sizeof(*bgrt));
}
