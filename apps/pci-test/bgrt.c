/* The BGRT as an OS reads it (ACPI 6.5, chapter 5): found through the XSDT, version 1, a BMP
 * image (type 0) that parses (lib/bmp.c, bounded by the size the OS would copy), in
 * EfiBootServicesData, and placed on the current GOP mode. Prints lines the QEMU tests read
 * ("ACPI BGRT none" when the firmware has none: a machine without a display has none).
 * Before pci-test prints anything, pt_bgrt_snapshot compares the screen under the BGRT's
 * rectangle with the image: the logo must really be there. */
#include "pci_test.h"
#include <efi/acpi.h>
#include <ember/lib/bmp.h>

#define BGRT_RESERVED_STATUS 0xf8 /* bits 3-7; 1-2 are the orientation offset */

static EFI_GUID acpi20_guid = EFI_ACPI_TABLE_GUID;
static EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;

/* The BGRT listed in the XSDT, or NULL. */
static const EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *find_bgrt(void)
{
	const EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp = pt_config_table(&acpi20_guid);
	const UINT8 *xsdt;
	UINT32 length;

	if (!rsdp || rsdp->Revision < EFI_ACPI_RSDP_REVISION_2 || !rsdp->XsdtAddress)
		return NULL;
	xsdt = (const UINT8 *)(uintptr_t)rsdp->XsdtAddress;
	mem_copy(&length, xsdt + 4, 4);
	for (UINT32 off = sizeof(EFI_ACPI_DESCRIPTION_HEADER); off + 8 <= length; off += 8) {
		UINT64 address;
		mem_copy(&address, xsdt + off, 8);
		if (address && !mem_cmp((const void *)(uintptr_t)address, "BGRT", 4))
			return (const void *)(uintptr_t)address;
	}
	return NULL;
}

/* The memory type of the page holding address, or -1 when the map has none. */
static INT32 memory_type_at(UINT64 address)
{
	UINTN map_size = 0, key, desc_size;
	UINT32 version;
	UINT8 *map;
	INT32 type = -1;

	app_bs->GetMemoryMap(&map_size, NULL, &key, &desc_size, &version);
	map_size += 16 * desc_size;
	map = app_alloc(map_size);
	if (!map ||
	    EFI_ERROR(app_bs->GetMemoryMap(&map_size, (void *)map, &key, &desc_size, &version))) {
		app_free(map);
		return -1;
	}
	for (UINTN off = 0; off + desc_size <= map_size; off += desc_size) {
		const EFI_MEMORY_DESCRIPTOR *d = (const void *)(map + off);
		if (address >= d->PhysicalStart &&
		    address - d->PhysicalStart < d->NumberOfPages * EFI_PAGE_SIZE)
			type = (INT32)d->Type;
	}
	app_free(map);
	return type;
}

static UINT32 snapshot_matching, snapshot_pixels;

/* The GOP pixels of the image's rectangle that equal the image's. */
static UINT32 matching_pixels(const EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *bgrt,
			      const struct bmp_image *image)
{
	UINTN count = (UINTN)image->width * image->height;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *want = app_alloc(count * sizeof(*want));
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *got = app_alloc(count * sizeof(*got));
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	UINT32 same = 0;

	if (want && got && !EFI_ERROR(app_bs->LocateProtocol(&gop_guid, NULL, (void **)&gop)) &&
	    !EFI_ERROR(bmp_to_blt(image, want, count)) &&
	    !EFI_ERROR(gop->Blt(gop, got, EfiBltVideoToBltBuffer, bgrt->ImageOffsetX,
				bgrt->ImageOffsetY, 0, 0, image->width, image->height, 0)))
		for (UINTN i = 0; i < count; i++)
			same += want[i].Red == got[i].Red && want[i].Green == got[i].Green &&
				want[i].Blue == got[i].Blue;
	app_free(want);
	app_free(got);
	return same;
}

void pt_bgrt_snapshot(void)
{
	const EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *bgrt = find_bgrt();
	const UINT8 *bmp;
	struct bmp_image image;
	UINT32 file_size;

	if (!bgrt || bgrt->Header.Length < sizeof(*bgrt) || !bgrt->ImageAddress)
		return;
	bmp = (const UINT8 *)(uintptr_t)bgrt->ImageAddress;
	mem_copy(&file_size, bmp + 2, 4);
	if (EFI_ERROR(bmp_parse(bmp, file_size, &image)))
		return;
	snapshot_pixels = image.width * image.height;
	snapshot_matching = matching_pixels(bgrt, &image);
}

/* The image: a BMP the OS can copy (its file size), within the screen's current mode. */
static void check_image(const EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *bgrt)
{
	const UINT8 *bmp = (const UINT8 *)(uintptr_t)bgrt->ImageAddress;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	struct bmp_image image;
	UINT32 file_size, screen_w = 0, screen_h = 0;

	if (!CHECK(bmp != NULL) || !CHECK(bmp[0] == 'B' && bmp[1] == 'M'))
		return;
	mem_copy(&file_size, bmp + 2, 4);
	if (!CHECK_STATUS(bmp_parse(bmp, file_size, &image), EFI_SUCCESS))
		return;
	if (!EFI_ERROR(app_bs->LocateProtocol(&gop_guid, NULL, (void **)&gop))) {
		screen_w = gop->Mode->Info->HorizontalResolution;
		screen_h = gop->Mode->Info->VerticalResolution;
	}
	app_print("ACPI BGRT image %ux%u %u-bit %u bytes memory type %d screen %ux%u\n",
		  image.width, image.height, image.bits, file_size,
		  memory_type_at(bgrt->ImageAddress), screen_w, screen_h);
	app_print("ACPI BGRT image on screen at start: %u of %u pixels\n", snapshot_matching,
		  snapshot_pixels);
	CHECK(gop != NULL);
	CHECK((UINT64)bgrt->ImageOffsetX + image.width <= screen_w);
	CHECK((UINT64)bgrt->ImageOffsetY + image.height <= screen_h);
}

void pt_check_bgrt(void)
{
	const EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *bgrt = find_bgrt();

	if (!bgrt) {
		app_print("ACPI BGRT none\n");
		return;
	}
	app_print("ACPI BGRT version %u status 0x%x type %u offset %u,%u\n", bgrt->Version,
		  bgrt->Status, bgrt->ImageType, bgrt->ImageOffsetX, bgrt->ImageOffsetY);
	if (!CHECK(bgrt->Header.Length >= sizeof(*bgrt)) ||
	    !CHECK_EQ(bgrt->Version, EFI_ACPI_BGRT_VERSION) ||
	    !CHECK_EQ(bgrt->ImageType, EFI_ACPI_BGRT_IMAGE_TYPE_BMP))
		return;
	CHECK((bgrt->Status & BGRT_RESERVED_STATUS) == 0);
	check_image(bgrt);
}
