/* A QEMU display device in memory (see fake_display.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_display.h"
#include <efi/pci.h>
#include <ember/core/core.h>
#include <ember/lib/util.h>

#define MMIO_BAR_BASE 0xFEB00000ULL /* reported only: never dereferenced */
#define DISPI_ID5 0xB0C5

static struct fake_display *fake(EFI_PCI_IO_PROTOCOL *this)
{
	return container_of(this, struct fake_display, pci_io);
}

static UINT16 dispi_get(struct fake_display *d, UINT16 index)
{
	if (index == FAKE_DISPI_ID)
		return DISPI_ID5;
	if (index == FAKE_DISPI_VRAM_64K)
		return (UINT16)(d->config.vram >> 16);
	return index < ARRAY_SIZE(d->dispi) ? d->dispi[index] : 0xFFFF;
}

static void dispi_set(struct fake_display *d, UINT16 index, UINT16 value)
{
	if (index >= ARRAY_SIZE(d->dispi))
		return;
	if (index == FAKE_DISPI_YRES && d->config.max_yres && value > d->config.max_yres)
		value = d->config.max_yres;
	d->dispi[index] = value;
	d->dispi_writes++;
}

/* VGA ports 0x3C0 (attribute index/data, alternating) and 0x3DA (resets the alternation). */
static UINT8 vga_port(struct fake_display *d, UINT16 port, UINT8 value, bool write)
{
	if (port == 0x3DA && !write) {
		d->ar_data_next = false;
		return 0;
	}
	if (port == 0x3C0 && write) {
		if (!d->ar_data_next)
			d->ar_index = value & 0x3F;
		d->ar_data_next = !d->ar_data_next;
	}
	return 0;
}

static EFI_STATUS EFIAPI mem_read(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				  UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	struct fake_display *d = fake(this);

	if (bar == 2)
		d->mmio_accesses++;
	if (bar != 2 || d->config.no_mmio || count != 1)
		return EFI_UNSUPPORTED;
	if (width == EfiPciIoWidthUint16 && offset >= 0x500 && offset < 0x520)
		*(UINT16 *)buffer = dispi_get(d, (UINT16)((offset - 0x500) >> 1));
	else if (width == EfiPciIoWidthUint8 && offset >= 0x400 && offset < 0x420)
		*(UINT8 *)buffer = vga_port(d, (UINT16)(0x3C0 + offset - 0x400), 0, false);
	else
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI mem_write(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				   UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	struct fake_display *d = fake(this);

	if (bar == 2)
		d->mmio_accesses++;
	if (bar != 2 || d->config.no_mmio || count != 1)
		return EFI_UNSUPPORTED;
	if (width == EfiPciIoWidthUint16 && offset >= 0x500 && offset < 0x520)
		dispi_set(d, (UINT16)((offset - 0x500) >> 1), *(UINT16 *)buffer);
	else if (width == EfiPciIoWidthUint8 && offset >= 0x400 && offset < 0x420)
		vga_port(d, (UINT16)(0x3C0 + offset - 0x400), *(UINT8 *)buffer, true);
	else
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI io_read(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				 UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	struct fake_display *d = fake(this);

	if (bar != EFI_PCI_IO_PASS_THROUGH_BAR || count != 1)
		return EFI_UNSUPPORTED;
	if (width == EfiPciIoWidthUint16 && offset == 0x1D0)
		*(UINT16 *)buffer = dispi_get(d, d->dispi_index);
	else if (width == EfiPciIoWidthUint8 && offset >= 0x3C0 && offset < 0x3E0)
		*(UINT8 *)buffer = vga_port(d, (UINT16)offset, 0, false);
	else
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI io_write(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				  UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	struct fake_display *d = fake(this);

	if (bar != EFI_PCI_IO_PASS_THROUGH_BAR || count != 1)
		return EFI_UNSUPPORTED;
	if (width == EfiPciIoWidthUint16 && offset == 0x1CE)
		d->dispi_index = *(UINT16 *)buffer;
	else if (width == EfiPciIoWidthUint16 && offset == 0x1D0)
		dispi_set(d, d->dispi_index, *(UINT16 *)buffer);
	else if (width == EfiPciIoWidthUint8 && offset >= 0x3C0 && offset < 0x3E0)
		vga_port(d, (UINT16)offset, *(UINT8 *)buffer, true);
	else
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI config_read(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				     UINT32 offset, UINTN count, VOID *buffer)
{
	struct fake_display *d = fake(this);
	UINT8 space[64] = {0};

	if (width != EfiPciIoWidthUint32 || count != 1 || offset % 4 || offset >= sizeof(space))
		return EFI_UNSUPPORTED;
	*(UINT16 *)&space[PCI_VENDOR_ID_OFFSET] = d->config.vendor;
	*(UINT16 *)&space[PCI_DEVICE_ID_OFFSET] = d->config.device;
	space[PCI_REVISION_ID_OFFSET] = 2;
	space[PCI_SUB_CLASS_OFFSET] = d->config.sub_class;
	space[PCI_BASE_CLASS_OFFSET] = PCI_CLASS_DISPLAY;
	memcpy(buffer, &space[offset], 4);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI attributes(EFI_PCI_IO_PROTOCOL *this,
				    EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op, UINT64 value,
				    UINT64 *result)
{
	struct fake_display *d = fake(this);
	const UINT64 supported =
	    EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER;

	if (value & ~supported)
		return EFI_UNSUPPORTED;
	if (op == EfiPciIoAttributeOperationGet)
		*result = d->attributes;
	else if (op == EfiPciIoAttributeOperationSupported)
		*result = supported;
	else if (op == EfiPciIoAttributeOperationEnable)
		d->attributes |= value;
	else if (op == EfiPciIoAttributeOperationSet)
		d->attributes = value;
	else
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI bar_attributes(EFI_PCI_IO_PROTOCOL *this, UINT8 bar, UINT64 *supports,
					VOID **resources)
{
	struct fake_display *d = fake(this);
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *desc;
	EFI_ACPI_END_TAG_DESCRIPTOR *end;

	if (bar != 0 && (bar != 2 || d->config.no_mmio))
		return EFI_UNSUPPORTED;
	desc = pool_alloc(sizeof(*desc) + sizeof(*end));
	*desc = (EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR){
	    .Desc = ACPI_ADDRESS_SPACE_DESCRIPTOR,
	    .Len = sizeof(*desc) - 3,
	    .ResType = ACPI_ADDRESS_SPACE_TYPE_MEM,
	    .AddrSpaceGranularity = 32,
	    .AddrRangeMin = bar == 0 ? (UINT64)(uintptr_t)d->vram : MMIO_BAR_BASE,
	    .AddrLen = bar == 0 ? d->config.vram : 0x1000,
	};
	desc->AddrRangeMax = desc->AddrRangeMin + desc->AddrLen - 1;
	end = (EFI_ACPI_END_TAG_DESCRIPTOR *)(desc + 1);
	*end = (EFI_ACPI_END_TAG_DESCRIPTOR){ACPI_END_TAG_DESCRIPTOR, 0};
	*resources = desc;
	return EFI_SUCCESS;
}

static void path_init(struct fake_display_path *p)
{
	p->root.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){ACPI_DEVICE_PATH, ACPI_DP, {sizeof(p->root), 0}};
	p->root.HID = 0x0A0341D0; /* PNP0A03 */
	p->root.UID = 0;
	p->pci.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(p->pci), 0}};
	p->pci.Device = 2;
	p->pci.Function = 0;
	p->end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
}

struct fake_display *fake_display_create(const struct fake_display_config *config)
{
	static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
	static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	struct fake_display *d = calloc(1, sizeof(*d));

	d->config = *config;
	d->vram = aligned_alloc(4096, config->vram);
	memset(d->vram, 0x5A, config->vram);
	d->pci_io = (EFI_PCI_IO_PROTOCOL){
	    .Mem = {mem_read, mem_write},
	    .Io = {io_read, io_write},
	    .Pci = {config_read, NULL},
	    .Attributes = attributes,
	    .GetBarAttributes = bar_attributes,
	};
	path_init(&d->path);
	if (EFI_ERROR(protocol_install_multiple(&d->handle, &pci_io_guid, &d->pci_io, &path_guid,
						&d->path, NULL))) {
		free(d->vram);
		free(d);
		return NULL;
	}
	return d;
}

void fake_display_destroy(struct fake_display *d)
{
	static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
	static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

	if (!d)
		return;
	driver_disconnect(d->handle, NULL, NULL);
	protocol_uninstall_multiple(d->handle, &pci_io_guid, &d->pci_io, &path_guid, &d->path,
				    NULL);
	free(d->vram);
	free(d);
}
