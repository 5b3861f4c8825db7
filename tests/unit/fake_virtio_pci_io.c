/* A PCI function in memory for the virtio driver tests (see fake_virtio_pci_io.h). */
#include <stdio.h>
#include <string.h>

#include "fake_virtio_pci_io.h"
#include <ember/core/core.h>
#include <ember/lib/util.h>

#define PAGE 4096
#define DMA_ATTRIBUTES                                                                             \
	(EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE | EFI_PCI_IO_ATTRIBUTE_MEMORY_CACHED |          \
	 EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE)

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

static struct fake_vpci *fake(EFI_PCI_IO_PROTOCOL *this)
{
	return container_of(this, struct fake_vpci, pci_io);
}

void fake_vpci_error(struct fake_vpci *p, const char *what, UINT64 value)
{
	p->errors++;
	snprintf(p->last_error, sizeof(p->last_error), "%s (%#llx)", what,
		 (unsigned long long)value);
}

/* Bytes of one access of width (the FIFO and fill forms are not used by virtio). */
static UINT32 width_bytes(EFI_PCI_IO_PROTOCOL_WIDTH width)
{
	return width <= EfiPciIoWidthUint64 ? 1u << width : 0;
}

/* ---- Configuration space ---- */

static EFI_STATUS EFIAPI config_read(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				     UINT32 offset, UINTN count, VOID *buffer)
{
	struct fake_vpci *p = fake(this);
	UINT64 bytes = (UINT64)width_bytes(width) * count;

	if (!buffer || !bytes)
		return EFI_INVALID_PARAMETER;
	if (offset + bytes > sizeof(p->config))
		return EFI_UNSUPPORTED;
	memcpy(buffer, p->config + offset, bytes);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI config_write(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				      UINT32 offset, UINTN count, VOID *buffer)
{
	struct fake_vpci *p = fake(this);
	UINT64 bytes = (UINT64)width_bytes(width) * count;

	if (!buffer || !bytes)
		return EFI_INVALID_PARAMETER;
	if (offset + bytes > sizeof(p->config))
		return EFI_UNSUPPORTED;
	/* The identification and the capabilities are read-only: a driver has no business
	 * writing anything virtio drivers use. */
	fake_vpci_error(p, "configuration space write", offset);
	return EFI_SUCCESS;
}

void fake_vpci_config_set(struct fake_vpci *p, UINT32 offset, UINT32 size, UINT64 value)
{
	if (offset + size <= sizeof(p->config))
		memcpy(p->config + offset, &value, size);
}

/* ---- BARs ---- */

/* The BAR an access may reach, or NULL with the reason recorded. */
static struct fake_vpci_bar *bar_for(struct fake_vpci *p, bool io, UINT8 index, UINT64 offset,
				     UINT64 bytes)
{
	struct fake_vpci_bar *bar = index < ARRAY_SIZE(p->bars) ? &p->bars[index] : NULL;
	UINT64 decode = io ? EFI_PCI_IO_ATTRIBUTE_IO : EFI_PCI_IO_ATTRIBUTE_MEMORY;

	if (!bar || !bar->size || bar->io != io) {
		fake_vpci_error(p,
				io ? "I/O access to a BAR that is not I/O"
				   : "memory access to a BAR that is not memory",
				index);
		return NULL;
	}
	if (offset > bar->size || bytes > bar->size - offset) {
		fake_vpci_error(p, "BAR access out of range", offset);
		return NULL;
	}
	if (!(p->attributes & decode)) {
		fake_vpci_error(p, "BAR access while its decoding is off", index);
		return NULL;
	}
	return bar;
}

static EFI_STATUS bar_access(EFI_PCI_IO_PROTOCOL *this, bool io, bool write,
			     EFI_PCI_IO_PROTOCOL_WIDTH width, UINT8 index, UINT64 offset,
			     UINTN count, void *buffer)
{
	struct fake_vpci *p = fake(this);
	UINT32 size = width_bytes(width);
	struct fake_vpci_bar *bar;

	if (!buffer || !size || !count)
		return EFI_INVALID_PARAMETER;
	bar = bar_for(p, io, index, offset, (UINT64)size * count);
	if (!bar) {
		if (!write)
			memset(buffer, 0xff, (UINTN)size * count); /* a master abort */
		return EFI_UNSUPPORTED;
	}
	for (UINTN i = 0; i < count; i++) {
		UINT8 *at = (UINT8 *)buffer + i * size;
		UINT64 value = 0;
		if (write) {
			memcpy(&value, at, size);
			bar->write(bar->context, offset + i * size, size, value);
		} else {
			value = bar->read(bar->context, offset + i * size, size);
			memcpy(at, &value, size);
		}
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI mem_read(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				  UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	return bar_access(this, false, false, width, bar, offset, count, buffer);
}

static EFI_STATUS EFIAPI mem_write(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				   UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	return bar_access(this, false, true, width, bar, offset, count, buffer);
}

static EFI_STATUS EFIAPI io_read(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				 UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	return bar_access(this, true, false, width, bar, offset, count, buffer);
}

static EFI_STATUS EFIAPI io_write(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				  UINT8 bar, UINT64 offset, UINTN count, VOID *buffer)
{
	return bar_access(this, true, true, width, bar, offset, count, buffer);
}

/* ---- Attributes ---- */

static EFI_STATUS EFIAPI attributes(EFI_PCI_IO_PROTOCOL *this,
				    EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op, UINT64 value,
				    UINT64 *result)
{
	struct fake_vpci *p = fake(this);

	if (op >= EfiPciIoAttributeOperationMaximum)
		return EFI_INVALID_PARAMETER;
	if (p->faults.attributes & (1u << op))
		return EFI_DEVICE_ERROR;
	switch (op) {
	case EfiPciIoAttributeOperationGet:
	case EfiPciIoAttributeOperationSupported:
		if (!result)
			return EFI_INVALID_PARAMETER;
		*result = op == EfiPciIoAttributeOperationGet ? p->attributes : p->supported;
		return EFI_SUCCESS;
	case EfiPciIoAttributeOperationDisable:
		p->attributes &= ~value;
		return EFI_SUCCESS;
	default:
		break;
	}
	if (value & ~p->supported)
		return EFI_UNSUPPORTED;
	if (op == EfiPciIoAttributeOperationSet)
		p->attributes = value;
	else
		p->attributes |= value;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_location(EFI_PCI_IO_PROTOCOL *this, UINTN *segment, UINTN *bus,
				      UINTN *device, UINTN *function)
{
	struct fake_vpci *p = fake(this);

	if (!segment || !bus || !device || !function)
		return EFI_INVALID_PARAMETER;
	*segment = 0;
	*bus = 0;
	*device = p->path.pci.Device;
	*function = p->path.pci.Function;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI bar_attributes(EFI_PCI_IO_PROTOCOL *this, UINT8 bar, UINT64 *supports,
					VOID **resources)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI flush(EFI_PCI_IO_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

/* ---- DMA ---- */

static struct fake_vpci_buffer *buffer_holding(struct fake_vpci *p, const UINT8 *host, UINTN bytes)
{
	for (UINTN i = 0; i < ARRAY_SIZE(p->buffers); i++) {
		struct fake_vpci_buffer *b = &p->buffers[i];
		if (b->host && host >= b->host &&
		    bytes <= b->pages * PAGE - (UINTN)(host - b->host))
			return b;
	}
	return NULL;
}

static EFI_STATUS EFIAPI allocate_buffer(EFI_PCI_IO_PROTOCOL *this, EFI_ALLOCATE_TYPE type,
					 EFI_MEMORY_TYPE memory_type, UINTN pages, VOID **host,
					 UINT64 attrs)
{
	struct fake_vpci *p = fake(this);
	EFI_PHYSICAL_ADDRESS address = 0;
	struct fake_vpci_buffer *slot = NULL;

	if (type != AllocateAnyPages && type != AllocateMaxAddress)
		return EFI_INVALID_PARAMETER;
	if (memory_type != EfiBootServicesData && memory_type != EfiRuntimeServicesData)
		return EFI_INVALID_PARAMETER;
	if (!host || !pages)
		return EFI_INVALID_PARAMETER;
	if (attrs & ~DMA_ATTRIBUTES)
		return EFI_UNSUPPORTED;
	if (++p->alloc_calls == p->faults.alloc_fail_at)
		return EFI_OUT_OF_RESOURCES;
	for (UINTN i = 0; i < ARRAY_SIZE(p->buffers) && !slot; i++)
		if (!p->buffers[i].host)
			slot = &p->buffers[i];
	if (!slot || EFI_ERROR(mem_allocate_pages(AllocateAnyPages, memory_type, pages, &address)))
		return EFI_OUT_OF_RESOURCES;
	slot->host = (UINT8 *)(uintptr_t)address;
	slot->pages = pages;
	*host = slot->host;
	return EFI_SUCCESS;
}

static bool map_overlaps(struct fake_vpci *p, const UINT8 *host, UINTN bytes)
{
	for (UINTN i = 0; i < ARRAY_SIZE(p->maps); i++) {
		struct fake_vpci_map *m = &p->maps[i];
		if (m->used && host < m->host + m->bytes && m->host < host + bytes)
			return true;
	}
	return false;
}

static EFI_STATUS EFIAPI free_buffer(EFI_PCI_IO_PROTOCOL *this, UINTN pages, VOID *host)
{
	struct fake_vpci *p = fake(this);
	struct fake_vpci_buffer *b = buffer_holding(p, host, pages * PAGE);

	p->free_calls++;
	if (!b || b->host != host || b->pages != pages) {
		fake_vpci_error(p, "FreeBuffer of what AllocateBuffer did not give",
				(uintptr_t)host);
		return EFI_INVALID_PARAMETER;
	}
	if (map_overlaps(p, host, pages * PAGE))
		fake_vpci_error(p, "FreeBuffer of a buffer still mapped", (uintptr_t)host);
	mem_free_pages((uintptr_t)host, pages);
	b->host = NULL;
	return EFI_SUCCESS;
}

/* A bounce buffer for a streaming map: the device sees it, not the caller's memory. */
static EFI_STATUS bounce(struct fake_vpci_map *m)
{
	EFI_PHYSICAL_ADDRESS address;

	m->bounce_pages = ALIGN_UP(m->bytes, (UINTN)PAGE) / PAGE;
	if (EFI_ERROR(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData, m->bounce_pages,
					 &address)))
		return EFI_OUT_OF_RESOURCES;
	m->device = (UINT8 *)(uintptr_t)address;
	/* What the device is to read is copied now; what it writes is garbage until it does. */
	if (m->op == EfiPciIoOperationBusMasterRead)
		memcpy(m->device, m->host, m->bytes);
	else
		memset(m->device, 0xa5, m->bytes);
	return EFI_SUCCESS;
}

static EFI_STATUS map_common(struct fake_vpci *p, struct fake_vpci_map *m)
{
	if (!buffer_holding(p, m->host, m->bytes)) {
		fake_vpci_error(p, "CommonBuffer map of memory AllocateBuffer did not give",
				(uintptr_t)m->host);
		return EFI_UNSUPPORTED;
	}
	if (p->faults.short_common)
		m->bytes--;
	m->device = m->host;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI map(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_OPERATION op,
			     VOID *host, UINTN *bytes, EFI_PHYSICAL_ADDRESS *dev_addr,
			     VOID **mapping)
{
	struct fake_vpci *p = fake(this);
	struct fake_vpci_map *m = NULL;
	EFI_STATUS status;

	if (op >= EfiPciIoOperationMaximum || !host || !bytes || !*bytes || !dev_addr || !mapping)
		return EFI_INVALID_PARAMETER;
	if (++p->map_calls == p->faults.map_fail_at)
		return EFI_OUT_OF_RESOURCES;
	for (UINTN i = 0; i < ARRAY_SIZE(p->maps) && !m; i++)
		if (!p->maps[i].used)
			m = &p->maps[i];
	if (!m)
		return EFI_OUT_OF_RESOURCES;
	*m = (struct fake_vpci_map){false, op, host, host, *bytes, 0, 0};
	if (op == EfiPciIoOperationBusMasterCommonBuffer) {
		status = map_common(p, m);
	} else {
		if (p->faults.map_limit && m->bytes > p->faults.map_limit)
			m->bytes = p->faults.map_limit;
		status = p->bounce ? bounce(m) : EFI_SUCCESS;
	}
	if (EFI_ERROR(status))
		return status;
	m->used = true;
	m->dev_addr = (uintptr_t)m->device + p->dma_offset;
	*bytes = m->bytes;
	*dev_addr = m->dev_addr;
	*mapping = m;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI unmap(EFI_PCI_IO_PROTOCOL *this, VOID *mapping)
{
	struct fake_vpci *p = fake(this);
	struct fake_vpci_map *m = mapping;

	p->unmap_calls++;
	if (m < p->maps || m >= p->maps + ARRAY_SIZE(p->maps) || !m->used) {
		fake_vpci_error(p, "Unmap of an unknown mapping", (uintptr_t)mapping);
		return EFI_INVALID_PARAMETER;
	}
	if (m->bounce_pages) {
		if (m->op == EfiPciIoOperationBusMasterWrite)
			memcpy(m->host, m->device, m->bytes);
		mem_free_pages((uintptr_t)m->device, m->bounce_pages);
	}
	m->used = false;
	return EFI_SUCCESS;
}

void *fake_vpci_dma(struct fake_vpci *p, UINT64 dev_addr, UINT64 bytes, bool device_writes)
{
	EFI_PCI_IO_PROTOCOL_OPERATION needed =
	    device_writes ? EfiPciIoOperationBusMasterWrite : EfiPciIoOperationBusMasterRead;

	if (!(p->attributes & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)) {
		fake_vpci_error(p, "DMA while bus mastering is off", dev_addr);
		return NULL;
	}
	for (UINTN i = 0; i < ARRAY_SIZE(p->maps); i++) {
		struct fake_vpci_map *m = &p->maps[i];
		if (!m->used || dev_addr < m->dev_addr || bytes > m->bytes ||
		    dev_addr - m->dev_addr > m->bytes - bytes)
			continue;
		if (m->op != needed && m->op != EfiPciIoOperationBusMasterCommonBuffer)
			continue;
		return m->device + (dev_addr - m->dev_addr);
	}
	fake_vpci_error(p,
			device_writes ? "device write outside any mapping"
				      : "device read outside any mapping",
			dev_addr);
	return NULL;
}

UINTN fake_vpci_live_maps(const struct fake_vpci *p)
{
	UINTN n = 0;

	for (UINTN i = 0; i < ARRAY_SIZE(p->maps); i++)
		n += p->maps[i].used;
	return n;
}

UINTN fake_vpci_live_buffers(const struct fake_vpci *p)
{
	UINTN n = 0;

	for (UINTN i = 0; i < ARRAY_SIZE(p->buffers); i++)
		n += p->buffers[i].host != NULL;
	return n;
}

/* ---- Set-up ---- */

static void path_init(struct fake_vpci_path *path)
{
	/* Each function gets its own slot: a device path may be on one handle only. */
	static UINT8 next_device = 8;

	path->root.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){ACPI_DEVICE_PATH, ACPI_DP, {sizeof(path->root), 0}};
	path->root.HID = 0x0A0341D0; /* PNP0A03 */
	path->root.UID = 0;
	path->pci.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(path->pci), 0}};
	path->pci.Device = next_device;
	path->pci.Function = 0;
	next_device = next_device == 31 ? 8 : next_device + 1;
	path->end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
}

void fake_vpci_init(struct fake_vpci *p)
{
	memset(p, 0, sizeof(*p));
	p->pci_io = (EFI_PCI_IO_PROTOCOL){
	    .Mem = {mem_read, mem_write},
	    .Io = {io_read, io_write},
	    .Pci = {config_read, config_write},
	    .Map = map,
	    .Unmap = unmap,
	    .AllocateBuffer = allocate_buffer,
	    .FreeBuffer = free_buffer,
	    .Flush = flush,
	    .GetLocation = get_location,
	    .Attributes = attributes,
	    .GetBarAttributes = bar_attributes,
	};
	p->attributes = EFI_PCI_IO_ATTRIBUTE_IO;
	p->supported = EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY |
		       EFI_PCI_IO_ATTRIBUTE_BUS_MASTER | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE;
	path_init(&p->path);
}

EFI_STATUS fake_vpci_install(struct fake_vpci *p)
{
	p->handle = NULL;
	return protocol_install_multiple(&p->handle, &pci_io_guid, &p->pci_io, &path_guid, &p->path,
					 NULL);
}

void fake_vpci_uninstall(struct fake_vpci *p)
{
	if (p->handle) {
		driver_disconnect(p->handle, NULL, NULL);
		protocol_uninstall_multiple(p->handle, &pci_io_guid, &p->pci_io, &path_guid,
					    &p->path, NULL);
		p->handle = NULL;
	}
	/* What a failing driver left behind must not leak into the next test. */
	for (UINTN i = 0; i < ARRAY_SIZE(p->maps); i++)
		if (p->maps[i].used)
			unmap(&p->pci_io, &p->maps[i]);
	for (UINTN i = 0; i < ARRAY_SIZE(p->buffers); i++)
		if (p->buffers[i].host)
			free_buffer(&p->pci_io, p->buffers[i].pages, p->buffers[i].host);
}
