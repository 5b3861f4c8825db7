/* A PCI function in memory (see fake_pci_io.h): configuration space, BARs served by a
 * device model, attributes, and DMA through a root bridge that bounces high buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_pci_io.h"
#include <ember/core/core.h>
#include <ember/lib/util.h>

/* Where the BARs are said to be (reported, never used): memory BARs 1 MiB apart, I/O BARs
 * 256 ports apart. */
#define BAR_BASE 0xC0000000ULL
#define IO_BAR_BASE 0xC000u
#define COMMAND_ATTRIBUTES                                                                         \
	(EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* A buffer AllocateBuffer handed out. */
struct fake_pci_buffer {
	struct list link;
	UINT8 *host;
	UINTN pages;
};

static struct fake_pci_io *fake_pci_io_from(EFI_PCI_IO_PROTOCOL *this)
{
	return container_of(this, struct fake_pci_io, pci_io);
}

void fake_pci_io_fault(struct fake_pci_io *f, const char *what)
{
	f->faults_seen++;
	snprintf(f->last_fault, sizeof(f->last_fault), "%s", what);
}

/* Counts a call; true when it is the one to fail. */
static bool faulty_call(UINTN *calls, UINTN fail_at)
{
	return ++*calls == fail_at;
}

/* Bytes per element of a width, and how the device and buffer sides advance (UEFI 2.10,
 * 14.4: FIFO keeps the device address, Fill keeps the buffer). */
static bool width_steps(EFI_PCI_IO_PROTOCOL_WIDTH width, UINT32 *bytes, UINT32 *device_step,
			UINT32 *buffer_step)
{
	if (width >= EfiPciIoWidthMaximum)
		return false;
	*bytes = 1u << (width & 3);
	*device_step =
	    width >= EfiPciIoWidthFifoUint8 && width <= EfiPciIoWidthFifoUint64 ? 0 : *bytes;
	*buffer_step = width >= EfiPciIoWidthFillUint8 ? 0 : *bytes;
	return true;
}

/* ---- Configuration space ---- */

static void attributes_to_command(struct fake_pci_io *f)
{
	UINT16 cmd;

	memcpy(&cmd, f->config + PCI_COMMAND_OFFSET, 2);
	cmd &= ~(PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER);
	cmd |= (f->attributes & EFI_PCI_IO_ATTRIBUTE_IO ? PCI_COMMAND_IO_SPACE : 0) |
	       (f->attributes & EFI_PCI_IO_ATTRIBUTE_MEMORY ? PCI_COMMAND_MEMORY_SPACE : 0) |
	       (f->attributes & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER ? PCI_COMMAND_BUS_MASTER : 0);
	memcpy(f->config + PCI_COMMAND_OFFSET, &cmd, 2);
}

static void command_to_attributes(struct fake_pci_io *f)
{
	UINT16 cmd;

	memcpy(&cmd, f->config + PCI_COMMAND_OFFSET, 2);
	f->attributes = (f->attributes & ~(UINT64)COMMAND_ATTRIBUTES) |
			(cmd & PCI_COMMAND_IO_SPACE ? EFI_PCI_IO_ATTRIBUTE_IO : 0) |
			(cmd & PCI_COMMAND_MEMORY_SPACE ? EFI_PCI_IO_ATTRIBUTE_MEMORY : 0) |
			(cmd & PCI_COMMAND_BUS_MASTER ? EFI_PCI_IO_ATTRIBUTE_BUS_MASTER : 0);
}

/* The identity (IDs, class code, header type) is read-only, as on hardware. */
static bool config_writable(UINT32 offset)
{
	return offset >= PCI_COMMAND_OFFSET && offset != PCI_REVISION_ID_OFFSET &&
	       (offset < PCI_CLASS_CODE_OFFSET || offset > PCI_BASE_CLASS_OFFSET) &&
	       offset != PCI_HEADER_TYPE_OFFSET;
}

static EFI_STATUS config_access(EFI_PCI_IO_PROTOCOL *this, bool write,
				EFI_PCI_IO_PROTOCOL_WIDTH width, UINT32 offset, UINTN count,
				void *buffer)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	UINT32 bytes, dstep, bstep;
	UINT8 *b = buffer;

	if (!buffer || !width_steps(width, &bytes, &dstep, &bstep))
		return EFI_INVALID_PARAMETER;
	if (offset % bytes ||
	    (UINT64)offset + (UINT64)dstep * (count ? count - 1 : 0) + bytes > sizeof(f->config))
		return EFI_UNSUPPORTED;
	for (UINTN i = 0; i < count; i++, offset += dstep, b += bstep)
		for (UINT32 k = 0; k < bytes; k++) {
			if (!write)
				b[k] = f->config[offset + k];
			else if (config_writable(offset + k))
				f->config[offset + k] = b[k];
		}
	if (write)
		command_to_attributes(f);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI config_read(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				     UINT32 offset, UINTN count, VOID *buffer)
{
	return config_access(this, false, width, offset, count, buffer);
}

static EFI_STATUS EFIAPI config_write(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				      UINT32 offset, UINTN count, VOID *buffer)
{
	return config_access(this, true, width, offset, count, buffer);
}

/* ---- BARs ---- */

static UINT64 load(const UINT8 *p, UINT32 bytes)
{
	UINT64 v = 0;

	memcpy(&v, p, bytes);
	return v;
}

static EFI_STATUS bar_access(EFI_PCI_IO_PROTOCOL *this, bool io, bool write,
			     EFI_PCI_IO_PROTOCOL_WIDTH width, UINT8 index, UINT64 offset,
			     UINTN count, void *buffer)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_bar *bar = index < FAKE_PCI_BARS ? &f->bars[index] : NULL;
	UINT64 decode = io ? EFI_PCI_IO_ATTRIBUTE_IO : EFI_PCI_IO_ATTRIBUTE_MEMORY;
	UINT32 bytes, dstep, bstep;
	UINT8 *b = buffer;

	if (!buffer || !width_steps(width, &bytes, &dstep, &bstep))
		return EFI_INVALID_PARAMETER;
	if (!bar || !bar->size || bar->io != io)
		return EFI_UNSUPPORTED;
	if (offset + (UINT64)dstep * (count ? count - 1 : 0) + bytes > bar->size)
		return EFI_UNSUPPORTED;
	for (UINTN i = 0; i < count; i++, offset += dstep, b += bstep) {
		/* Without decoding the device never sees the cycle: reads float high. */
		if (!(f->attributes & decode)) {
			fake_pci_io_fault(f, write ? "BAR write with decoding off"
						   : "BAR read with decoding off");
			if (!write)
				memset(b, 0xff, bytes);
		} else if (write) {
			bar->write(bar->device, offset, bytes, load(b, bytes));
		} else {
			UINT64 v = bar->read(bar->device, offset, bytes);
			memcpy(b, &v, bytes);
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

/* PollMem/PollIo: reads until (value & mask) == match or Delay (100 ns units) has passed. */
static EFI_STATUS poll(EFI_PCI_IO_PROTOCOL *this, bool io, EFI_PCI_IO_PROTOCOL_WIDTH width,
		       UINT8 bar, UINT64 offset, UINT64 mask, UINT64 match, UINT64 delay,
		       UINT64 *result)
{
	EFI_STATUS status;

	if (!result || width > EfiPciIoWidthUint64)
		return EFI_INVALID_PARAMETER;
	for (UINT64 waited = 0;; waited += 10) {
		*result = 0;
		status = bar_access(this, io, false, width, bar, offset, 1, result);
		if (EFI_ERROR(status) || (*result & mask) == match)
			return status;
		if (waited >= delay)
			return EFI_TIMEOUT;
		core_stall_us(1); /* 10 units of 100 ns */
	}
}

static EFI_STATUS EFIAPI poll_mem(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				  UINT8 bar, UINT64 offset, UINT64 mask, UINT64 match, UINT64 delay,
				  UINT64 *result)
{
	return poll(this, false, width, bar, offset, mask, match, delay, result);
}

static EFI_STATUS EFIAPI poll_io(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				 UINT8 bar, UINT64 offset, UINT64 mask, UINT64 match, UINT64 delay,
				 UINT64 *result)
{
	return poll(this, true, width, bar, offset, mask, match, delay, result);
}

static EFI_STATUS EFIAPI copy_mem(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_WIDTH width,
				  UINT8 dest_bar, UINT64 dest_offset, UINT8 src_bar,
				  UINT64 src_offset, UINTN count)
{
	return EFI_UNSUPPORTED;
}

static UINT64 bar_base(struct fake_pci_io *f, UINT8 index)
{
	return f->bars[index].io ? IO_BAR_BASE + 0x100u * index : BAR_BASE + 0x100000ULL * index;
}

static EFI_STATUS EFIAPI get_bar_attributes(EFI_PCI_IO_PROTOCOL *this, UINT8 index,
					    UINT64 *supports, VOID **resources)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct __attribute__((packed)) {
		EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR desc;
		EFI_ACPI_END_TAG_DESCRIPTOR end;
	} * r;

	if (!supports && !resources)
		return EFI_INVALID_PARAMETER;
	if (index >= FAKE_PCI_BARS || !f->bars[index].size)
		return EFI_UNSUPPORTED;
	if (supports)
		*supports = 0;
	if (!resources)
		return EFI_SUCCESS;
	r = pool_alloc(sizeof(*r));
	r->desc.Desc = ACPI_ADDRESS_SPACE_DESCRIPTOR;
	r->desc.Len = sizeof(r->desc) - 3;
	r->desc.ResType =
	    f->bars[index].io ? ACPI_ADDRESS_SPACE_TYPE_IO : ACPI_ADDRESS_SPACE_TYPE_MEM;
	r->desc.AddrSpaceGranularity = f->bars[index].io ? 0 : 32;
	r->desc.AddrRangeMin = bar_base(f, index);
	r->desc.AddrLen = f->bars[index].size;
	r->desc.AddrRangeMax = r->desc.AddrRangeMin + r->desc.AddrLen - 1;
	r->end.Desc = ACPI_END_TAG_DESCRIPTOR;
	*resources = r;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI set_bar_attributes(EFI_PCI_IO_PROTOCOL *this, UINT64 attributes,
					    UINT8 index, UINT64 *offset, UINT64 *length)
{
	return offset && length ? EFI_UNSUPPORTED : EFI_INVALID_PARAMETER;
}

/* ---- Attributes (UEFI 2.10, 14.4 Attributes) ---- */

static EFI_STATUS EFIAPI attributes(EFI_PCI_IO_PROTOCOL *this,
				    EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op, UINT64 value,
				    UINT64 *result)
{
	struct fake_pci_io *f = fake_pci_io_from(this);

	if (faulty_call(&f->attributes_calls, f->faults.attributes_fail_at))
		return EFI_DEVICE_ERROR;
	switch (op) {
	case EfiPciIoAttributeOperationGet:
	case EfiPciIoAttributeOperationSupported:
		if (!result)
			return EFI_INVALID_PARAMETER;
		*result = op == EfiPciIoAttributeOperationGet ? f->attributes : f->supports;
		return EFI_SUCCESS;
	case EfiPciIoAttributeOperationSet:
	case EfiPciIoAttributeOperationEnable:
	case EfiPciIoAttributeOperationDisable:
		if (value & ~f->supports)
			return EFI_UNSUPPORTED;
		if (op == EfiPciIoAttributeOperationSet)
			f->attributes = value;
		else if (op == EfiPciIoAttributeOperationEnable)
			f->attributes |= value;
		else
			f->attributes &= ~value;
		attributes_to_command(f);
		return EFI_SUCCESS;
	default:
		return EFI_INVALID_PARAMETER;
	}
}

static EFI_STATUS EFIAPI get_location(EFI_PCI_IO_PROTOCOL *this, UINTN *segment, UINTN *bus,
				      UINTN *device, UINTN *function)
{
	struct fake_pci_io *f = fake_pci_io_from(this);

	if (!segment || !bus || !device || !function)
		return EFI_INVALID_PARAMETER;
	*segment = 0;
	*bus = 0;
	*device = f->path.pci.Device;
	*function = f->path.pci.Function;
	return EFI_SUCCESS;
}

/* ---- DMA (UEFI 2.10, 14.4 Map, Unmap, AllocateBuffer, FreeBuffer) ---- */

static bool dual_address(struct fake_pci_io *f)
{
	return f->attributes & EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE;
}

static bool above_4g(const void *p, UINTN bytes)
{
	return ((UINT64)(uintptr_t)p + (bytes ? bytes - 1 : 0)) >> 32;
}

static UINTN pages_of(UINTN bytes)
{
	return (bytes + 4095) / 4096;
}

/* Pages from the firmware's memory, below 4 GiB unless the device does 64-bit DMA. */
static UINT8 *get_pages(EFI_MEMORY_TYPE type, UINTN pages, bool high)
{
	EFI_PHYSICAL_ADDRESS addr = high ? ~0ULL : 0xFFFFFFFFULL;

	if (EFI_ERROR(mem_allocate_pages(AllocateMaxAddress, type, pages, &addr)))
		return NULL;
	return (UINT8 *)(uintptr_t)addr;
}

static void put_pages(UINT8 *p, UINTN pages)
{
	mem_free_pages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, pages);
}

static struct fake_pci_buffer *buffer_holding(struct fake_pci_io *f, const UINT8 *p, UINTN bytes)
{
	struct fake_pci_buffer *b;

	list_for_each_entry (b, &f->buffers, link)
		if (p >= b->host && bytes <= b->pages * 4096 &&
		    (UINTN)(p - b->host) <= b->pages * 4096 - bytes)
			return b;
	return NULL;
}

static EFI_STATUS EFIAPI allocate_buffer(EFI_PCI_IO_PROTOCOL *this, EFI_ALLOCATE_TYPE type,
					 EFI_MEMORY_TYPE memory_type, UINTN pages, VOID **host,
					 UINT64 attrs)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_buffer *b;

	if (!host || (memory_type != EfiBootServicesData && memory_type != EfiRuntimeServicesData))
		return EFI_INVALID_PARAMETER;
	if (attrs &
	    ~(UINT64)(EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE |
		      EFI_PCI_IO_ATTRIBUTE_MEMORY_CACHED | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE))
		return EFI_UNSUPPORTED;
	if (faulty_call(&f->alloc_calls, f->faults.alloc_fail_at))
		return EFI_OUT_OF_RESOURCES;
	b = calloc(1, sizeof(*b));
	b->host = get_pages(memory_type, pages, dual_address(f));
	if (!b->host) {
		free(b);
		return EFI_OUT_OF_RESOURCES;
	}
	b->pages = pages;
	list_add_tail(&b->link, &f->buffers);
	f->live_buffers++;
	*host = b->host;
	return EFI_SUCCESS;
}

static bool is_mapped(struct fake_pci_io *f, const UINT8 *p, UINTN bytes)
{
	struct fake_pci_map *m;

	list_for_each_entry (m, &f->maps, link)
		if (p < m->host + m->bytes && m->host < p + bytes)
			return true;
	return false;
}

static EFI_STATUS EFIAPI free_buffer(EFI_PCI_IO_PROTOCOL *this, UINTN pages, VOID *host)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_buffer *b = buffer_holding(f, host, 1);

	if (!b || b->host != host || b->pages != pages) {
		fake_pci_io_fault(f, "FreeBuffer of memory AllocateBuffer did not give");
		return EFI_INVALID_PARAMETER;
	}
	if (is_mapped(f, b->host, pages * 4096))
		fake_pci_io_fault(f, "FreeBuffer of a buffer still mapped");
	put_pages(b->host, b->pages);
	list_del(&b->link);
	free(b);
	f->live_buffers--;
	return EFI_SUCCESS;
}

/* A buffer the device cannot reach goes through a copy below 4 GiB, as a root bridge does. */
static EFI_STATUS bounce(struct fake_pci_io *f, struct fake_pci_map *m)
{
	if (m->op == EfiPciIoOperationBusMasterCommonBuffer) {
		fake_pci_io_fault(f, "CommonBuffer map out of the device's reach");
		return EFI_UNSUPPORTED;
	}
	m->bounce = get_pages(EfiBootServicesData, pages_of(m->bytes), false);
	if (!m->bounce)
		return EFI_OUT_OF_RESOURCES;
	if (m->op == EfiPciIoOperationBusMasterRead)
		memcpy(m->bounce, m->host, m->bytes);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI map(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_OPERATION op,
			     VOID *host, UINTN *bytes, EFI_PHYSICAL_ADDRESS *device, VOID **mapping)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	bool common = op == EfiPciIoOperationBusMasterCommonBuffer;
	UINTN limit = common ? f->faults.common_map_limit : f->faults.map_limit;
	struct fake_pci_map *m;

	if ((UINT32)op >= EfiPciIoOperationMaximum || !host || !bytes || !device || !mapping)
		return EFI_INVALID_PARAMETER;
	if (faulty_call(&f->map_calls, f->faults.map_fail_at))
		return EFI_OUT_OF_RESOURCES;
	if (common && !buffer_holding(f, host, *bytes)) {
		fake_pci_io_fault(f, "CommonBuffer map of memory AllocateBuffer did not give");
		return EFI_UNSUPPORTED;
	}
	m = calloc(1, sizeof(*m));
	*m = (struct fake_pci_map){.op = op, .host = host, .bytes = *bytes};
	if (limit && m->bytes > limit)
		m->bytes = limit;
	if (above_4g(host, m->bytes) && !dual_address(f) && !f->faults.no_bounce) {
		EFI_STATUS status = bounce(f, m);
		if (EFI_ERROR(status)) {
			free(m);
			return status;
		}
	}
	m->device = (UINT64)(uintptr_t)(m->bounce ? m->bounce : m->host) + f->faults.dma_offset;
	list_add_tail(&m->link, &f->maps);
	f->live_maps++;
	*bytes = m->bytes;
	*device = m->device;
	*mapping = m;
	return EFI_SUCCESS;
}

static void drop_map(struct fake_pci_io *f, struct fake_pci_map *m)
{
	if (m->bounce && m->op == EfiPciIoOperationBusMasterWrite)
		memcpy(m->host, m->bounce, m->bytes);
	if (m->bounce)
		put_pages(m->bounce, pages_of(m->bytes));
	list_del(&m->link);
	free(m);
	f->live_maps--;
}

static EFI_STATUS EFIAPI unmap(EFI_PCI_IO_PROTOCOL *this, VOID *mapping)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_map *m;

	f->unmap_calls++;
	list_for_each_entry (m, &f->maps, link)
		if (m == mapping) {
			drop_map(f, m);
			return EFI_SUCCESS;
		}
	fake_pci_io_fault(f, "Unmap of a mapping that is not live");
	return EFI_INVALID_PARAMETER;
}

static EFI_STATUS EFIAPI flush(EFI_PCI_IO_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

void *fake_pci_io_dma(struct fake_pci_io *f, UINT64 addr, UINTN bytes, bool device_writes)
{
	struct fake_pci_map *m;
	bool wrong_way = false;

	if (!(f->attributes & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)) {
		fake_pci_io_fault(f, "DMA with bus mastering off");
		return NULL;
	}
	list_for_each_entry (m, &f->maps, link) {
		if (addr < m->device || bytes > m->bytes || addr - m->device > m->bytes - bytes)
			continue;
		/* A read mapping's data never comes back to the host; a write mapping's bounce
		 * holds nothing of the host's. */
		if (device_writes ? m->op == EfiPciIoOperationBusMasterRead
				  : m->op == EfiPciIoOperationBusMasterWrite) {
			wrong_way = true;
			continue;
		}
		return (m->bounce ? m->bounce : m->host) + (addr - m->device);
	}
	if (wrong_way)
		fake_pci_io_fault(f, device_writes ? "DMA write into a BusMasterRead mapping"
						   : "DMA read from a BusMasterWrite mapping");
	else
		fake_pci_io_fault(f, device_writes ? "DMA write outside every mapping"
						   : "DMA read outside every mapping");
	return NULL;
}

/* What the drivers left behind goes, so that one failing test does not drain the next. */
static void release_dma(struct fake_pci_io *f)
{
	struct fake_pci_map *m, *mt;
	struct fake_pci_buffer *b, *bt;

	list_for_each_entry_safe (m, mt, &f->maps, link)
		drop_map(f, m);
	list_for_each_entry_safe (b, bt, &f->buffers, link) {
		put_pages(b->host, b->pages);
		list_del(&b->link);
		free(b);
	}
}

/* ---- The function ---- */

static void config_init(struct fake_pci_io *f, const struct fake_pci_io_config *c)
{
	memcpy(f->config + PCI_VENDOR_ID_OFFSET, &c->vendor, 2);
	memcpy(f->config + PCI_DEVICE_ID_OFFSET, &c->device, 2);
	f->config[PCI_REVISION_ID_OFFSET] = 1;
	f->config[PCI_PROG_IF_OFFSET] = (UINT8)c->class_code;
	f->config[PCI_SUB_CLASS_OFFSET] = (UINT8)(c->class_code >> 8);
	f->config[PCI_BASE_CLASS_OFFSET] = (UINT8)(c->class_code >> 16);
	f->supports = c->supports;
	f->attributes = c->attributes;
	attributes_to_command(f);
}

static void path_init(struct fake_pci_io_path *p, UINT8 dev, UINT8 fn)
{
	p->root.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){ACPI_DEVICE_PATH, ACPI_DP, {sizeof(p->root), 0}};
	p->root.HID = 0x0A0341D0; /* PNP0A03, the root bridge */
	p->root.UID = 0;
	p->pci.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(p->pci), 0}};
	p->pci.Device = dev;
	p->pci.Function = fn;
	p->end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
}

struct fake_pci_io *fake_pci_io_create(const struct fake_pci_io_config *config)
{
	struct fake_pci_io *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	list_init(&f->maps);
	list_init(&f->buffers);
	config_init(f, config);
	path_init(&f->path, config->dev, config->fn);
	f->pci_io = (EFI_PCI_IO_PROTOCOL){
	    .PollMem = poll_mem,
	    .PollIo = poll_io,
	    .Mem = {mem_read, mem_write},
	    .Io = {io_read, io_write},
	    .Pci = {config_read, config_write},
	    .CopyMem = copy_mem,
	    .Attributes = attributes,
	    .GetLocation = get_location,
	    .GetBarAttributes = get_bar_attributes,
	    .SetBarAttributes = set_bar_attributes,
	    .Map = map,
	    .Unmap = unmap,
	    .AllocateBuffer = allocate_buffer,
	    .FreeBuffer = free_buffer,
	    .Flush = flush,
	};
	if (EFI_ERROR(protocol_install_multiple(&f->handle, &pci_io_guid, &f->pci_io, &path_guid,
						&f->path, NULL))) {
		free(f);
		return NULL;
	}
	return f;
}

void fake_pci_io_set_bar(struct fake_pci_io *f, UINT8 index, const struct fake_pci_bar *bar)
{
	UINT32 reg;

	f->bars[index] = *bar;
	/* The BAR register tells its kind and place, for drivers that look (virtio does). */
	reg = (UINT32)bar_base(f, index) | (bar->io ? 1 : 0);
	memcpy(f->config + PCI_BASE_ADDRESS_REG(index), &reg, 4);
}

void fake_pci_io_destroy(struct fake_pci_io *f)
{
	if (!f)
		return;
	driver_disconnect(f->handle, NULL, NULL);
	protocol_uninstall_multiple(f->handle, &pci_io_guid, &f->pci_io, &path_guid, &f->path,
				    NULL);
	release_dma(f);
	free(f);
}

bool fake_pci_io_unclaimed(struct fake_pci_io *f)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *entries = NULL;
	UINTN count = 0;
	bool claimed = false;

	if (EFI_ERROR(core_st->BootServices->OpenProtocolInformation(
		f->handle, (EFI_GUID *)&pci_io_guid, &entries, &count)))
		return false;
	for (UINTN i = 0; i < count; i++)
		claimed |= (entries[i].Attributes & EFI_OPEN_PROTOCOL_BY_DRIVER) != 0;
	pool_free(entries);
	return !claimed;
}
