/* A PCI function in memory (see fake_pci_io.h): configuration space, BARs served by a
 * device model, attributes, and the function's life. Its DMA is in fake_pci_io_dma.c. */
#include <stdarg.h>
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

static struct fake_pci_io *fake_pci_io_from(EFI_PCI_IO_PROTOCOL *this)
{
	return container_of(this, struct fake_pci_io, pci_io);
}

void fake_pci_io_error(struct fake_pci_io *f, const char *format, ...)
{
	va_list args;

	f->errors++;
	va_start(args, format);
	vsnprintf(f->last_error, sizeof(f->last_error), format, args);
	va_end(args);
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

/* The bytes an access of count elements spans on the device side. */
static UINT64 span(UINT32 bytes, UINT32 device_step, UINTN count)
{
	return (UINT64)device_step * (count - 1) + bytes;
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

	if (!buffer || !count || !width_steps(width, &bytes, &dstep, &bstep))
		return EFI_INVALID_PARAMETER;
	if (offset % bytes || offset + span(bytes, dstep, count) > sizeof(f->config))
		return EFI_UNSUPPORTED;
	if (write && f->config_read_only) {
		/* The driver has no business there: it goes through Attributes. */
		fake_pci_io_error(f, "configuration space write at %#x", offset);
		return EFI_SUCCESS;
	}
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

void fake_pci_io_config_set(struct fake_pci_io *f, UINT32 offset, UINT32 size, UINT64 value)
{
	if (size <= sizeof(value) && offset + size <= sizeof(f->config))
		memcpy(f->config + offset, &value, size);
}

/* ---- BARs ---- */

static UINT64 load(const UINT8 *p, UINT32 bytes)
{
	UINT64 v = 0;

	memcpy(&v, p, bytes);
	return v;
}

/* The BAR an access of span bytes may reach, or NULL with the mistake recorded. */
static struct fake_pci_bar *bar_for(struct fake_pci_io *f, bool io, UINT8 index, UINT64 offset,
				    UINT64 bytes)
{
	struct fake_pci_bar *bar = index < FAKE_PCI_BARS ? &f->bars[index] : NULL;

	if (index == EFI_PCI_IO_PASS_THROUGH_BAR && io && f->legacy_io.size)
		bar = &f->legacy_io;

	if (!bar || !bar->size || bar->io != io) {
		fake_pci_io_error(f, "%s access to BAR %u, which is not %s", io ? "I/O" : "memory",
				  index, io ? "I/O" : "memory");
		return NULL;
	}
	if (offset > bar->size || bytes > bar->size - offset) {
		fake_pci_io_error(f, "access to BAR %u out of range (%#llx)", index,
				  (unsigned long long)offset);
		return NULL;
	}
	return bar;
}

static EFI_STATUS bar_access(EFI_PCI_IO_PROTOCOL *this, bool io, bool write,
			     EFI_PCI_IO_PROTOCOL_WIDTH width, UINT8 index, UINT64 offset,
			     UINTN count, void *buffer)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	UINT64 decode = io ? EFI_PCI_IO_ATTRIBUTE_IO : EFI_PCI_IO_ATTRIBUTE_MEMORY;
	UINT32 bytes, dstep, bstep;
	struct fake_pci_bar *bar;
	UINT8 *b = buffer;

	if (!buffer || !count || !width_steps(width, &bytes, &dstep, &bstep))
		return EFI_INVALID_PARAMETER;
	bar = bar_for(f, io, index, offset, span(bytes, dstep, count));
	for (UINTN i = 0; i < count; i++, offset += dstep, b += bstep) {
		/* No such register, or decoding off: the device never sees the cycle, reads
		 * float high (a master abort). */
		if (!bar || !(f->attributes & decode)) {
			if (!write)
				memset(b, 0xff, bytes);
		} else if (write) {
			bar->write(bar->device, offset, bytes, load(b, bytes));
		} else {
			UINT64 v = bar->read(bar->device, offset, bytes);
			memcpy(b, &v, bytes);
		}
	}
	if (!bar)
		return EFI_UNSUPPORTED;
	if (!(f->attributes & decode))
		fake_pci_io_error(f, "BAR %u %s with decoding off", index,
				  write ? "write" : "read");
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

/* True when this call is one to fail (by its number or by its operation). */
static bool attributes_fail(struct fake_pci_io *f, EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op)
{
	bool nth = faulty_call(&f->attributes_calls, f->faults.attributes_fail_at);

	return nth || ((UINT32)op < 32 && (f->faults.attributes_fail_ops & (1u << op)));
}

static EFI_STATUS EFIAPI attributes(EFI_PCI_IO_PROTOCOL *this,
				    EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op, UINT64 value,
				    UINT64 *result)
{
	struct fake_pci_io *f = fake_pci_io_from(this);

	if (attributes_fail(f, op))
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

static EFI_STATUS EFIAPI flush(EFI_PCI_IO_PROTOCOL *this)
{
	return EFI_SUCCESS;
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
	f->config_read_only = c->config_read_only;
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
	    .Flush = flush,
	};
	fake_pci_io_dma_init(f);
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
	fake_pci_io_dma_release(f);
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
		claimed |= (entries[i].Attributes &
			    (EFI_OPEN_PROTOCOL_BY_DRIVER | EFI_OPEN_PROTOCOL_EXCLUSIVE)) != 0;
	pool_free(entries);
	return !claimed;
}
