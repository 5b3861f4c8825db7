/* The boot logo and its ACPI BGRT (ACPI 6.5, chapter 5): the logo is drawn centred on the
 * screen, and the table tells the OS where it lies and where its BMP is, so that the OS's
 * boot splash can keep it (Linux shows it in /sys/firmware/acpi/bgrt/). As the ACPI
 * specification asks, and as OVMF does, the BMP is a copy in EfiBootServicesData: the OS
 * copies it early (Linux ignores the table otherwise) and may then reuse the memory. The
 * table itself is in ACPI reclaim memory below 4 GiB, where the RSDT can point at it. */
#define LOG_PREFIX "bgrt: "
#include <ember/core/boot_logo.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "pure/acpi_bgrt.h"
#include "../../common/acpi_tables.h"
#include "tables/acpi.h"

#define BELOW_4GIB 0xffffffffULL

static EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *published;

/* The logo is covered (the boot menu): the table no longer says it is displayed. */
static void covered(void)
{
	published->Status &= (UINT8)~EFI_ACPI_BGRT_STATUS_DISPLAYED;
	published->Header.Checksum = 0;
	published->Header.Checksum = acpi_checksum(published, sizeof(*published));
	log_info("the logo is covered: the BGRT no longer says it is displayed\n");
}

/* The BGRT for the logo drawn at place, with its image copied to boot-services memory. */
static EFI_STATUS install(const EFI_ACPI_DESCRIPTION_HEADER *like,
			  const struct boot_logo_place *place)
{
	EFI_PHYSICAL_ADDRESS table = BELOW_4GIB;
	void *image = pool_dup(boot_logo_bmp, boot_logo_bmp_size);
	EFI_STATUS status;

	if (!image) {
		log_debug("no memory for the image\n");
		return EFI_OUT_OF_RESOURCES;
	}
	status = mem_allocate_pages(AllocateMaxAddress, EfiACPIReclaimMemory, 1, &table);
	if (EFI_ERROR(status)) {
		log_debug("allocating the table: %r\n", status);
		goto free_image;
	}
	acpi_build_bgrt((void *)(uintptr_t)table, like, (uintptr_t)image, place->x, place->y);
	status = acpi_add_table(table);
	if (EFI_ERROR(status)) {
		log_debug("adding the table: %r\n", status);
		goto free_table;
	}
	published = (void *)(uintptr_t)table;
	boot_logo_when_covered(covered);
	return EFI_SUCCESS;
free_table:
	mem_free_pages(table, 1);
free_image:
	pool_free(image);
	return status;
}

void bgrt_show_logo(void)
{
	const EFI_ACPI_DESCRIPTION_HEADER *like = acpi_oem_header();
	struct boot_logo_place place;
	EFI_STATUS status = boot_logo_draw(&place);

	if (EFI_ERROR(status)) {
		log_info("no boot logo: %r\n", status);
		return;
	}
	status = like ? install(like, &place) : EFI_NOT_READY;
	if (EFI_ERROR(status))
		log_warn("the boot logo has no ACPI BGRT: %r\n", status);
}
