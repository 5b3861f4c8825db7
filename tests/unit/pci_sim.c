/* The simulated PCI machine and its fake root bridge (pci_sim.h). The root bridge members
 * follow UEFI 2.10, 14.2: FIFO widths keep the address and step through the buffer, FILL
 * widths step through the addresses and repeat one element. */
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "pci_sim.h"
#include <ember/core/core.h>
#include <efi/acpi_resource.h>

struct pci_sim_func pci_sim_funcs[PCI_SIM_MAX_FUNCS];
int pci_sim_nfuncs;
struct pci_sim_state pci_sim;
EFI_HANDLE pci_sim_root_handle;

static const EFI_GUID rb_guid = EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_GUID;
static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* ---- Memory and I/O spaces: pages of bytes made on first write; unwritten bytes float
 * high, as on a bus where nothing answers. ---- */

#define SIM_PAGES 16
#define SIM_PAGE 4096

static struct {
	bool used, io;
	UINT64 base;
	UINT8 bytes[SIM_PAGE];
} pages[SIM_PAGES];

static UINT8 *byte_at(bool io, UINT64 address, bool create)
{
	UINT64 base = address & ~(UINT64)(SIM_PAGE - 1);
	int free_slot = -1;

	for (int i = 0; i < SIM_PAGES; i++) {
		if (pages[i].used && pages[i].io == io && pages[i].base == base)
			return &pages[i].bytes[address - base];
		if (!pages[i].used && free_slot < 0)
			free_slot = i;
	}
	if (!create || free_slot < 0)
		return NULL;
	pages[free_slot].used = true;
	pages[free_slot].io = io;
	pages[free_slot].base = base;
	memset(pages[free_slot].bytes, 0xff, SIM_PAGE);
	return &pages[free_slot].bytes[address - base];
}

/* An enabled expansion ROM that decodes address, or NULL. */
static const UINT8 *rom_byte(UINT64 address)
{
	for (int i = 0; i < pci_sim_nfuncs; i++) {
		struct pci_sim_func *f = &pci_sim_funcs[i];
		UINT32 bar;
		memcpy(&bar, f->cfg + PCI_EXPANSION_ROM_BASE_OFFSET, 4);
		UINT64 base = bar & PCI_EXPANSION_ROM_ADDRESS_MASK;
		if (f->rom && (bar & PCI_EXPANSION_ROM_ENABLE) &&
		    (f->cfg[PCI_COMMAND_OFFSET] & PCI_COMMAND_MEMORY_SPACE) && address >= base &&
		    address < base + f->rom_size)
			return f->rom + (address - base);
	}
	return NULL;
}

static UINT8 read_byte(bool io, UINT64 address)
{
	UINT8 *b = byte_at(io, address, false);
	const UINT8 *r = io ? NULL : rom_byte(address);

	if (r)
		return *r;

	if (pci_sim.busy_reads && io == pci_sim.busy_io && address == pci_sim.busy_address &&
	    --pci_sim.busy_reads == 0)
		pci_sim_poke(io, address, &pci_sim.busy_value, 1);
	return b ? *b : 0xff;
}

void pci_sim_poke(bool io, UINT64 address, const void *data, UINTN size)
{
	for (UINTN i = 0; i < size; i++)
		*byte_at(io, address + i, true) = ((const UINT8 *)data)[i];
}

void pci_sim_peek(bool io, UINT64 address, void *data, UINTN size)
{
	for (UINTN i = 0; i < size; i++) {
		UINT8 *b = byte_at(io, address + i, false);
		((UINT8 *)data)[i] = b ? *b : 0xff;
	}
}

/* ---- Configuration space ---- */

static struct pci_sim_func *find(UINT8 bus, UINT8 dev, UINT8 fn)
{
	for (int i = 0; i < pci_sim_nfuncs; i++) {
		struct pci_sim_func *f = &pci_sim_funcs[i];
		UINT8 f_bus =
		    f->behind ? pci_sim_funcs[f->behind - 1].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET]
			      : 0;
		if (f->behind && !f_bus)
			continue; /* invisible until its bridge is numbered */
		if (f_bus == bus && f->dev == dev && f->fn == fn)
			return f;
	}
	return NULL;
}

/* A BAR register write keeps only the bits the BAR decodes (and its type bits). */
static void write_cfg(struct pci_sim_func *f, UINT32 reg, const UINT8 *src, UINTN n)
{
	UINT32 bars = (f->cfg[PCI_HEADER_TYPE_OFFSET] & 0x7f) == PCI_HEADER_TYPE_BRIDGE ? 2 : 6;

	for (UINTN i = 0; i < n; i++, reg++) {
		UINT32 bar = (reg - 0x10) / 4;
		if (reg >= 0x10 && bar < bars) {
			UINT32 size = f->bar_size[bar], low = f->cfg[0x10 + 4 * bar] & 0xf;
			bool upper = bar > 0 && (f->cfg[0x10 + 4 * (bar - 1)] & 6) == 4 &&
				     f->bar_size[bar - 1];
			UINT32 mask = upper ? 0xffffffff : size ? ~(size - 1) : 0;
			if (f->io16 && (low & PCI_BAR_IO_SPACE))
				mask &= 0xffff;
			UINT8 keep = (UINT8)(mask >> (8 * (reg & 3)));
			UINT8 v = src[i] & keep;
			if ((reg & 3) == 0 && !upper)
				v = (v & ~0xf) | low;
			f->cfg[reg] = v;
			continue;
		}
		if (bars == 6 && reg >= PCI_EXPANSION_ROM_BASE_OFFSET &&
		    reg < PCI_EXPANSION_ROM_BASE_OFFSET + 4) {
			UINT32 mask =
			    f->rom_size ? ~(f->rom_size - 1) | PCI_EXPANSION_ROM_ENABLE : 0;
			f->cfg[reg] = src[i] & (UINT8)(mask >> (8 * (reg & 3)));
			continue;
		}
		/* A bridge's window type nibbles are read-only. */
		if (bars == 2 && (reg == 0x1c || reg == 0x1d || reg == 0x24 || reg == 0x26))
			f->cfg[reg] = (src[i] & 0xf0) | (f->cfg[reg] & 0x0f);
		else
			f->cfg[reg] = src[i];
	}
}

static bool is_fifo(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH w)
{
	return w >= EfiPciWidthFifoUint8 && w <= EfiPciWidthFifoUint64;
}

static bool is_fill(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH w)
{
	return w >= EfiPciWidthFillUint8 && w <= EfiPciWidthFillUint64;
}

static EFI_STATUS sim_pci(bool write, EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH width, UINT64 address,
			  UINTN count, UINT8 *buffer)
{
	UINTN size = (UINTN)1 << (width & 3);
	UINTN reg_step = is_fifo(width) ? 0 : size, buf_step = is_fill(width) ? 0 : size;
	UINT32 reg = (address >> 32) ? (UINT32)(address >> 32) : (address & 0xff);
	struct pci_sim_func *f =
	    find((UINT8)(address >> 24), (UINT8)(address >> 16), (UINT8)(address >> 8));

	if (width >= EfiPciWidthMaximum || !buffer || (pci_sim.no_ecam && reg >= 0x100) ||
	    reg + reg_step * (count ? count - 1 : 0) + size > 4096)
		return EFI_INVALID_PARAMETER;
	for (UINTN i = 0; i < count; i++, reg += reg_step, buffer += buf_step) {
		if (write) {
			pci_sim.config_writes++;
			if (f)
				write_cfg(f, reg, buffer, size);
		} else if (f) {
			memcpy(buffer, f->cfg + reg, size);
		} else {
			memset(buffer, 0xff, size);
		}
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI sim_pci_read(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				      UINTN Count, VOID *Buffer)
{
	return sim_pci(false, Width, Address, Count, Buffer);
}

static EFI_STATUS EFIAPI sim_pci_write(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				       EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				       UINTN Count, VOID *Buffer)
{
	return sim_pci(true, Width, Address, Count, Buffer);
}

/* ---- Memory and I/O accesses ---- */

static void record(unsigned *counter, UINT32 width, UINT64 address, UINTN count, void *buffer)
{
	(*counter)++;
	pci_sim.last = (struct pci_sim_call){
	    .width = width, .address = address, .count = count, .buffer = buffer};
}

static EFI_STATUS space_access(bool io, bool write, EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH width,
			       UINT64 address, UINTN count, UINT8 *buffer)
{
	UINTN size = (UINTN)1 << (width & 3);
	UINTN addr_step = is_fifo(width) ? 0 : size, buf_step = is_fill(width) ? 0 : size;

	record(io ? &pci_sim.io_calls : &pci_sim.mem_calls, width, address, count, buffer);
	if (width >= EfiPciWidthMaximum || !buffer)
		return EFI_INVALID_PARAMETER;
	for (UINTN i = 0; i < count; i++, address += addr_step, buffer += buf_step)
		for (UINTN k = 0; k < size; k++) {
			if (write)
				pci_sim_poke(io, address + k, buffer + k, 1);
			else
				buffer[k] = read_byte(io, address + k);
		}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI sim_mem_read(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				      UINTN Count, VOID *Buffer)
{
	return space_access(false, false, Width, Address, Count, Buffer);
}

static EFI_STATUS EFIAPI sim_mem_write(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				       EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				       UINTN Count, VOID *Buffer)
{
	return space_access(false, true, Width, Address, Count, Buffer);
}

static EFI_STATUS EFIAPI sim_io_read(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				     EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				     UINTN Count, VOID *Buffer)
{
	return space_access(true, false, Width, Address, Count, Buffer);
}

static EFI_STATUS EFIAPI sim_io_write(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				      UINTN Count, VOID *Buffer)
{
	return space_access(true, true, Width, Address, Count, Buffer);
}

/* One read per 100 ns of Delay until (value & Mask) == Value. */
static EFI_STATUS sim_poll(bool io, EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH width, UINT64 address,
			   UINT64 mask, UINT64 value, UINT64 delay, UINT64 *result)
{
	UINTN size = (UINTN)1 << (width & 3);

	record(&pci_sim.poll_calls, width, address, 1, result);
	pci_sim.last.mask = mask;
	pci_sim.last.value = value;
	pci_sim.last.delay = delay;
	if (!result || width > EfiPciWidthUint64)
		return EFI_INVALID_PARAMETER;
	for (UINT64 waited = 0;; waited++) {
		*result = 0;
		for (UINTN k = 0; k < size; k++)
			*result |= (UINT64)read_byte(io, address + k) << (8 * k);
		if ((*result & mask) == value)
			return EFI_SUCCESS;
		if (waited >= delay)
			return EFI_TIMEOUT;
	}
}

static EFI_STATUS EFIAPI sim_poll_mem(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				      UINT64 Mask, UINT64 Value, UINT64 Delay, UINT64 *Result)
{
	return sim_poll(false, Width, Address, Mask, Value, Delay, Result);
}

static EFI_STATUS EFIAPI sim_poll_io(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				     EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				     UINT64 Mask, UINT64 Value, UINT64 Delay, UINT64 *Result)
{
	return sim_poll(true, Width, Address, Mask, Value, Delay, Result);
}

/* As if through a buffer, so overlapping ranges copy right. */
static EFI_STATUS EFIAPI sim_copy_mem(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width,
				      UINT64 DestAddress, UINT64 SrcAddress, UINTN Count)
{
	UINT8 tmp[SIM_PAGE];
	UINTN n = Count << (Width & 3);

	record(&pci_sim.copy_calls, Width, DestAddress, Count, NULL);
	pci_sim.last.address2 = SrcAddress;
	if (Width > EfiPciWidthUint64 || n > sizeof(tmp))
		return EFI_INVALID_PARAMETER;
	pci_sim_peek(false, SrcAddress, tmp, n);
	pci_sim_poke(false, DestAddress, tmp, n);
	return EFI_SUCCESS;
}

/* ---- DMA: identity mappings, buffers from the page allocator ---- */

static UINT8 mapping_tokens[4];

static EFI_STATUS EFIAPI sim_map(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				 EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_OPERATION Operation,
				 VOID *HostAddress, UINTN *NumberOfBytes,
				 EFI_PHYSICAL_ADDRESS *DeviceAddress, VOID **Mapping)
{
	record(&pci_sim.map_calls, Operation, (UINTN)HostAddress,
	       NumberOfBytes ? *NumberOfBytes : 0, HostAddress);
	if ((UINT32)Operation >= EfiPciOperationMaximum || !HostAddress || !NumberOfBytes ||
	    !DeviceAddress || !Mapping)
		return EFI_INVALID_PARAMETER;
	*DeviceAddress = (UINTN)HostAddress;
	*Mapping = &mapping_tokens[Operation % 4];
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI sim_unmap(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, VOID *Mapping)
{
	record(&pci_sim.unmap_calls, 0, (UINTN)Mapping, 0, Mapping);
	if ((UINT8 *)Mapping < mapping_tokens || (UINT8 *)Mapping >= mapping_tokens + 4)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI sim_allocate_buffer(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
					     EFI_ALLOCATE_TYPE Type, EFI_MEMORY_TYPE MemoryType,
					     UINTN Pages, VOID **HostAddress, UINT64 Attributes)
{
	EFI_PHYSICAL_ADDRESS address;
	EFI_STATUS status;

	record(&pci_sim.alloc_calls, MemoryType, Type, Pages, NULL);
	pci_sim.last.attributes = Attributes;
	if (!HostAddress)
		return EFI_INVALID_PARAMETER;
	if (Attributes & EFI_PCI_ATTRIBUTE_INVALID_FOR_ALLOCATE_BUFFER)
		return EFI_UNSUPPORTED;
	status = mem_allocate_pages(AllocateAnyPages, MemoryType, Pages, &address);
	if (!EFI_ERROR(status))
		*HostAddress = (void *)(UINTN)address;
	return status;
}

static EFI_STATUS EFIAPI sim_free_buffer(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, UINTN Pages,
					 VOID *HostAddress)
{
	record(&pci_sim.free_calls, 0, (UINTN)HostAddress, Pages, HostAddress);
	return mem_free_pages((UINTN)HostAddress, Pages);
}

static EFI_STATUS EFIAPI sim_flush(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This)
{
	pci_sim.flush_calls++;
	return EFI_SUCCESS;
}

/* ---- Resources ---- */

static struct __attribute__((packed)) {
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR d[4];
	EFI_ACPI_END_TAG_DESCRIPTOR end;
} apertures;

static EFI_STATUS EFIAPI sim_configuration(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, VOID **Resources)
{
	if (EFI_ERROR(pci_sim.configuration_status))
		return pci_sim.configuration_status;
	*Resources = &apertures;
	return EFI_SUCCESS;
}

void pci_sim_aperture(int i, UINT8 type, UINT8 granularity, UINT64 base, UINT64 len)
{
	apertures.d[i] = (EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR){ACPI_ADDRESS_SPACE_DESCRIPTOR,
							     0x2b,
							     type,
							     0,
							     0,
							     granularity,
							     base,
							     base + len - 1,
							     0,
							     len};
}

void pci_sim_aperture_translation(int i, UINT64 offset)
{
	apertures.d[i].AddrTranslationOffset = offset;
}

EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL pci_sim_root = {
    .PollMem = sim_poll_mem,
    .PollIo = sim_poll_io,
    .Mem = {sim_mem_read, sim_mem_write},
    .Io = {sim_io_read, sim_io_write},
    .Pci = {sim_pci_read, sim_pci_write},
    .CopyMem = sim_copy_mem,
    .Map = sim_map,
    .Unmap = sim_unmap,
    .AllocateBuffer = sim_allocate_buffer,
    .FreeBuffer = sim_free_buffer,
    .Flush = sim_flush,
    .Configuration = sim_configuration,
};

/* ---- The machine ---- */

void pci_sim_reset(void)
{
	pci_sim_nfuncs = 0;
	memset(&pci_sim, 0, sizeof(pci_sim));
	memset(pages, 0, sizeof(pages));
	memset(&apertures, 0, sizeof(apertures));
	apertures.end.Desc = ACPI_END_TAG_DESCRIPTOR;
}

struct pci_sim_func *pci_sim_add_func(UINT8 behind, UINT8 dev, UINT8 fn, UINT32 id,
				      UINT32 class_code, UINT8 header)
{
	struct pci_sim_func *f = &pci_sim_funcs[pci_sim_nfuncs++];

	memset(f, 0, sizeof(*f));
	f->behind = behind;
	f->dev = dev;
	f->fn = fn;
	memcpy(f->cfg, &id, 4);
	class_code <<= 8;
	memcpy(f->cfg + 8, &class_code, 4);
	f->cfg[PCI_HEADER_TYPE_OFFSET] = header;
	return f;
}

void pci_sim_set_bar(struct pci_sim_func *f, int i, UINT32 size, UINT32 type_bits)
{
	f->bar_size[i] = size;
	memcpy(f->cfg + 0x10 + 4 * i, &type_bits, 4);
}

void pci_sim_standard_machine(void)
{
	pci_sim_reset();
	pci_sim_add_func(0, 0, 0, 0x29c08086, 0x060000, 0);
	struct pci_sim_func *nic = pci_sim_add_func(0, 2, 0, 0x10001af4, 0x020000, 0);
	pci_sim_set_bar(nic, 0, 0x20, PCI_BAR_IO_SPACE);
	pci_sim_set_bar(nic, 1, 0x1000, 0);
	pci_sim_set_bar(nic, 4, 0x4000, PCI_BAR_MEM_TYPE_64 | PCI_BAR_MEM_PREFETCHABLE);
	nic->cfg[PCI_INTERRUPT_PIN_OFFSET] = 1;
	struct pci_sim_func *br =
	    pci_sim_add_func(0, 3, 0, 0x000c1b36, 0x060400, PCI_HEADER_TYPE_BRIDGE);
	pci_sim_set_bar(br, 0, 0x1000, 0);
	br->cfg[PCI_BRIDGE_PREFETCHABLE_MEMORY_BASE_OFFSET] = PCI_BRIDGE_PREF_RANGE_TYPE_64;
	br->cfg[PCI_BRIDGE_PREFETCHABLE_MEMORY_LIMIT_OFFSET] = PCI_BRIDGE_PREF_RANGE_TYPE_64;
	br->cfg[PCI_STATUS_OFFSET] = PCI_STATUS_CAPABILITIES_LIST;
	br->cfg[PCI_CAPABILITY_POINTER_OFFSET] = 0x40;
	UINT8 cap[32] = {PCI_CAP_ID_VENDOR_SPECIFIC, 0, 32, PCI_REDHAT_CAP_TYPE_RESOURCE_RESERVE,
			 3};
	memset(cap + 8, 0xff, 24);
	memcpy(br->cfg + 0x40, cap, sizeof(cap));
	struct pci_sim_func *blk = pci_sim_add_func(3, 0, 0, 0x10421af4, 0x010000, 0);
	pci_sim_set_bar(blk, 1, 0x1000, 0);
	pci_sim_set_bar(blk, 4, 0x4000, PCI_BAR_MEM_TYPE_64 | PCI_BAR_MEM_PREFETCHABLE);
	pci_sim_add_func(0, 4, 0, 0x12348086, 0x0c0500, PCI_HEADER_TYPE_MULTI_FUNCTION);
	pci_sim_add_func(0, 4, 2, 0x12358086, 0x0c0500, 0);
	pci_sim_aperture(0, ACPI_ADDRESS_SPACE_TYPE_IO, 0, 0x6000, 0xa000);
	pci_sim_aperture(1, ACPI_ADDRESS_SPACE_TYPE_MEM, 32, 0xc0000000, 0x3c000000);
	pci_sim_aperture(2, ACPI_ADDRESS_SPACE_TYPE_MEM, 64, 0x800000000, 0x800000000);
	pci_sim_aperture(3, ACPI_ADDRESS_SPACE_TYPE_BUS, 0, 0, 256);
}

static struct __attribute__((packed)) {
	ACPI_HID_DEVICE_PATH root;
	EFI_DEVICE_PATH_PROTOCOL end;
} root_path = {{{ACPI_DEVICE_PATH, ACPI_DP, {12, 0}}, EISA_PNP_ID(0x0a03), 0},
	       {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}};

void pci_sim_remove(void)
{
	if (!pci_sim_root_handle)
		return;
	driver_disconnect(pci_sim_root_handle, NULL, NULL);
	protocol_uninstall_multiple(pci_sim_root_handle, &dp_guid, &root_path, &rb_guid,
				    &pci_sim_root, NULL);
	pci_sim_root_handle = NULL;
}

/* (A test that stopped early may have left its root bridge behind.) */
void pci_sim_install(void)
{
	pci_sim_remove();
	test_install_builtin_drivers();
	ASSERT_STATUS(protocol_install_multiple(&pci_sim_root_handle, &dp_guid, &root_path,
						&rb_guid, &pci_sim_root, NULL),
		      EFI_SUCCESS);
}

bool pci_sim_start(void)
{
	pci_sim_install();
	return !EFI_ERROR(driver_connect(pci_sim_root_handle, NULL, NULL, false));
}

EFI_PCI_IO_PROTOCOL *pci_sim_child(UINTN bus, UINTN dev, UINTN fn, UINTN *count,
				   EFI_DEVICE_PATH_PROTOCOL **path)
{
	EFI_HANDLE *handles;
	EFI_PCI_IO_PROTOCOL *found = NULL;

	*count = 0;
	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &pci_io_guid, NULL, count, &handles)))
		return NULL;
	for (UINTN i = 0; i < *count; i++) {
		EFI_PCI_IO_PROTOCOL *io;
		UINTN s, b, d, f;
		protocol_get(handles[i], &pci_io_guid, (void **)&io);
		io->GetLocation(io, &s, &b, &d, &f);
		if (b == bus && d == dev && f == fn) {
			found = io;
			if (path)
				protocol_get(handles[i], &dp_guid, (void **)path);
		}
	}
	pool_free(handles);
	return found;
}

UINT64 pci_sim_bar(EFI_PCI_IO_PROTOCOL *io, UINT8 bar, UINT64 *len, UINT64 *granularity)
{
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *d;
	UINT64 base;

	if (EFI_ERROR(io->GetBarAttributes(io, bar, NULL, (void **)&d)))
		return 0;
	base = d->AddrRangeMin;
	*len = d->AddrLen;
	*granularity = d->AddrSpaceGranularity;
	pool_free(d);
	return base;
}
