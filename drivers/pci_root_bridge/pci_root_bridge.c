/* A platform's PCI root bridge (segment 0): its EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL (UEFI 2.10,
 * 14.2) on a handle with the device path PciRoot(0x0), which is what OVMF and ArmVirtQemu
 * use. The accessors are in pci_root_bridge_io.c and DMA in pci_root_bridge_dma.c; here
 * are the attributes and Configuration(), which describes the apertures the PCI bus driver
 * allocates from. */
#define LOG_PREFIX "pci root bridge: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/pci.h>
#include <efi/protocol/device_path.h>
#include "pci_root_bridge.h"
#include <ember/lib/guids.h>

static const struct __attribute__((packed)) {
	ACPI_HID_DEVICE_PATH root;
	EFI_DEVICE_PATH_PROTOCOL end;
} root_path = {
    {{ACPI_DEVICE_PATH, ACPI_DP, {sizeof(ACPI_HID_DEVICE_PATH), 0}}, EISA_PNP_ID(0x0a03), 0},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}},
};

static EFI_STATUS EFIAPI rb_get_attributes(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, UINT64 *Supports,
					   UINT64 *Attributes)
{
	if (!Supports && !Attributes)
		return EFI_INVALID_PARAMETER;
	if (Supports)
		*Supports = rb_from(This)->hw.supports;
	if (Attributes)
		*Attributes = rb_from(This)->attributes;
	return EFI_SUCCESS;
}

/* Only the forwarding attributes the platform names can be set; none of them changes
 * anything on QEMU, and no memory range attributes (caching) are supported, so
 * ResourceBase/Length are unused. */
static EFI_STATUS EFIAPI rb_set_attributes(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, UINT64 Attributes,
					   UINT64 *ResourceBase, UINT64 *ResourceLength)
{
	if (Attributes & ~rb_from(This)->hw.supports)
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
 * tells 32-bit from 64-bit memory); an empty 64-bit window has length 0. Since UEFI 2.7 the
 * ranges are host addresses and device = host + AddrTranslationOffset: the I/O range of a
 * bridge whose ports the CPU sees as MMIO (Arm) is where the CPU reaches it. */
static void describe_apertures(struct root_bridge *rb)
{
	const struct pci_apertures *ap = &rb->hw.apertures;
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *io = &rb->config.desc[0];
	UINT64 host = rb->hw.io_host_base;

	describe(io, ACPI_ADDRESS_SPACE_TYPE_IO, 0, 0, host + ap->io_base, host + ap->io_limit);
	io->AddrTranslationOffset = 0 - host;
	describe(&rb->config.desc[1], ACPI_ADDRESS_SPACE_TYPE_MEM, 32, 0, ap->mem32_base,
		 ap->mem32_limit);
	describe(&rb->config.desc[2], ACPI_ADDRESS_SPACE_TYPE_MEM, 64,
		 EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE_PREFETCHABLE, ap->mem64_base,
		 ap->mem64_limit);
	describe(&rb->config.desc[3], ACPI_ADDRESS_SPACE_TYPE_BUS, 0, 0, rb->hw.bus_base,
		 rb->hw.bus_limit);
	rb->config.end = (EFI_ACPI_END_TAG_DESCRIPTOR){ACPI_END_TAG_DESCRIPTOR, 0};
}

EFI_STATUS pci_root_bridge_install(const struct pci_root_bridge_hw *hw, EFI_HANDLE *handle)
{
	struct root_bridge *rb = pool_alloc(sizeof(*rb));
	EFI_STATUS status;

	if (!rb) {
		log_debug("no memory\n");
		return EFI_OUT_OF_RESOURCES;
	}
	mem_set(rb, 0, sizeof(*rb));
	rb->hw = *hw;
	describe_apertures(rb);
	list_init(&rb->mappings);
	rb->attributes = hw->attributes;
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
	if (EFI_ERROR(status)) {
		log_debug("installing the protocol: %r\n", status);
		pool_free(rb);
		return status;
	}
	rb->io.ParentHandle = rb->handle; /* no separate host bridge handle */
	*handle = rb->handle;
	return EFI_SUCCESS;
}
