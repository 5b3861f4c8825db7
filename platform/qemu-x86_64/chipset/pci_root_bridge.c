/* The QEMU machine's single PCI root bridge (segment 0, buses 0-255): its
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL (UEFI 2.10, 14.2) on a handle with the device path
 * PciRoot(0x0), which is what OVMF uses on both q35 and pc. The accessors are in
 * pci_root_bridge_io.c and DMA in pci_root_bridge_dma.c; here are the attributes and
 * Configuration(), which describes the apertures the PCI bus driver allocates from. */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <efi/pci.h>
#include <efi/protocol/device_path.h>
#include "chipset/pci_root_bridge.h"
#include <ember/lib/guids.h>

/* The legacy ranges a QEMU root bridge always forwards (ISA, VGA, IDE). */
#define RB_ATTRIBUTES                                                                              \
	(EFI_PCI_ATTRIBUTE_ISA_MOTHERBOARD_IO | EFI_PCI_ATTRIBUTE_ISA_IO_16 |                      \
	 EFI_PCI_ATTRIBUTE_VGA_MEMORY | EFI_PCI_ATTRIBUTE_VGA_IO_16 |                              \
	 EFI_PCI_ATTRIBUTE_VGA_PALETTE_IO_16 | EFI_PCI_ATTRIBUTE_IDE_PRIMARY_IO |                  \
	 EFI_PCI_ATTRIBUTE_IDE_SECONDARY_IO)
#define RB_SUPPORTS (RB_ATTRIBUTES | EFI_PCI_ATTRIBUTE_DUAL_ADDRESS_CYCLE)

static const struct __attribute__((packed)) {
	ACPI_HID_DEVICE_PATH root;
	EFI_DEVICE_PATH_PROTOCOL end;
} root_path = {
    {{ACPI_DEVICE_PATH, ACPI_DP, {sizeof(ACPI_HID_DEVICE_PATH), 0}}, EISA_PNP_ID(0x0a03), 0},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}},
};

static struct root_bridge root_bridge;

static EFI_STATUS EFIAPI rb_get_attributes(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, UINT64 *Supports,
					   UINT64 *Attributes)
{
	if (!Supports && !Attributes)
		return EFI_INVALID_PARAMETER;
	if (Supports)
		*Supports = RB_SUPPORTS;
	if (Attributes)
		*Attributes = rb_from(This)->attributes;
	return EFI_SUCCESS;
}

/* Only the forwarding attributes can be set; none of them changes anything on QEMU, and
 * no memory range attributes (caching) are supported, so ResourceBase/Length are unused. */
static EFI_STATUS EFIAPI rb_set_attributes(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, UINT64 Attributes,
					   UINT64 *ResourceBase, UINT64 *ResourceLength)
{
	if (Attributes & ~RB_SUPPORTS)
		return EFI_UNSUPPORTED;
	rb_from(This)->attributes = Attributes;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI rb_configuration(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, VOID **Resources)
{
	if (!Resources)
		return EFI_INVALID_PARAMETER;
	*Resources = &rb_from(This)->config;
	return EFI_SUCCESS;
}

static void describe(EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *d, UINT8 type, UINT8 granularity,
		     UINT8 flags, UINT64 base, UINT64 limit)
{
	*d = (EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR){
	    .Desc = ACPI_ADDRESS_SPACE_DESCRIPTOR,
	    .Len = sizeof(*d) - 3,
	    .ResType = type,
	    .SpecificFlag = flags,
	    .AddrSpaceGranularity = granularity,
	    .AddrRangeMin = base,
	    .AddrRangeMax = limit,
	    .AddrLen = base <= limit ? limit - base + 1 : 0,
	};
}

/* Configuration(): the apertures, in the QWORD form 14.2 describes (granularity 32 or 64
 * tells 32-bit from 64-bit memory); an empty 64-bit window has length 0. */
static void describe_apertures(struct root_bridge *rb)
{
	const struct pci_apertures *ap = &rb->apertures;

	describe(&rb->config.desc[0], ACPI_ADDRESS_SPACE_TYPE_IO, 0, 0, ap->io_base, ap->io_limit);
	describe(&rb->config.desc[1], ACPI_ADDRESS_SPACE_TYPE_MEM, 32, 0, ap->mem32_base,
		 ap->mem32_limit);
	describe(&rb->config.desc[2], ACPI_ADDRESS_SPACE_TYPE_MEM, 64,
		 EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE_PREFETCHABLE, ap->mem64_base,
		 ap->mem64_limit);
	describe(&rb->config.desc[3], ACPI_ADDRESS_SPACE_TYPE_BUS, 0, 0, 0, PCI_MAX_BUS);
	rb->config.end = (EFI_ACPI_END_TAG_DESCRIPTOR){ACPI_END_TAG_DESCRIPTOR, 0};
}

EFI_STATUS pci_root_bridge_install(EFI_HANDLE *handle)
{
	struct root_bridge *rb = &root_bridge;
	EFI_STATUS status;

	pci_apertures_compute(&rb->apertures);
	describe_apertures(rb);
	list_init(&rb->mappings);
	rb->attributes = RB_ATTRIBUTES;
	rb->io.SegmentNumber = 0;
	rb->io.GetAttributes = rb_get_attributes;
	rb->io.SetAttributes = rb_set_attributes;
	rb->io.Configuration = rb_configuration;
	rb_io_fill(&rb->io);
	rb_dma_fill(&rb->io);
	rb->handle = NULL;
	status = protocol_install_multiple(&rb->handle, &efi_device_path_protocol_guid,
					   (void *)&root_path,
					   &efi_pci_root_bridge_io_protocol_guid, &rb->io, NULL);
	if (EFI_ERROR(status))
		return status;
	rb->io.ParentHandle = rb->handle; /* no separate host bridge handle */
	*handle = rb->handle;
	return EFI_SUCCESS;
}
