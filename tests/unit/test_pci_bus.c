/* The PCI bus driver (drivers/pci) over a simulated root bridge: functions behind a bridge
 * appear only once it has bus numbers; BARs are sized and placed in the apertures; decoding
 * is enabled; children carry PciIo and Pci() device paths; Stop removes them and a second
 * Start rebuilds the same. Runs under ASan too, which the QEMU tests cannot. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <efi/pci.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/pci_root_bridge_io.h>

#define MAX_FUNCS 8

static const EFI_GUID rb_guid = EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_GUID;
static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* A function: where it sits (behind: 0 = root bus, else index+1 of its bridge) and its
 * configuration space; BAR sizes decide which bits stick. */
struct sim_func {
	UINT8 behind, dev, fn;
	UINT32 bar_size[6]; /* 0: not implemented; 64-bit BARs list the size on the low half */
	UINT8 cfg[4096];
};

static struct sim_func funcs[MAX_FUNCS];
static int nfuncs;
static unsigned config_writes;

static struct sim_func *add_func(UINT8 behind, UINT8 dev, UINT8 fn, UINT32 id, UINT32 class,
				 UINT8 header)
{
	struct sim_func *f = &funcs[nfuncs++];
	memset(f, 0, sizeof(*f));
	f->behind = behind;
	f->dev = dev;
	f->fn = fn;
	memcpy(f->cfg, &id, 4);
	class <<= 8;
	memcpy(f->cfg + 8, &class, 4);
	f->cfg[PCI_HEADER_TYPE_OFFSET] = header;
	return f;
}

static void set_bar(struct sim_func *f, int i, UINT32 size, UINT32 type_bits)
{
	f->bar_size[i] = size;
	memcpy(f->cfg + 0x10 + 4 * i, &type_bits, 4);
}

static struct sim_func *find(UINT8 bus, UINT8 dev, UINT8 fn)
{
	for (int i = 0; i < nfuncs; i++) {
		struct sim_func *f = &funcs[i];
		UINT8 f_bus =
		    f->behind ? funcs[f->behind - 1].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET] : 0;
		if (f->behind && !f_bus)
			continue; /* invisible until its bridge is numbered */
		if (f_bus == bus && f->dev == dev && f->fn == fn)
			return f;
	}
	return NULL;
}

/* A BAR register write keeps only the bits the BAR decodes (and its type bits). */
static void write_cfg(struct sim_func *f, UINT32 reg, const UINT8 *src, UINTN n)
{
	UINT32 bars = (f->cfg[PCI_HEADER_TYPE_OFFSET] & 0x7f) == PCI_HEADER_TYPE_BRIDGE ? 2 : 6;

	for (UINTN i = 0; i < n; i++, reg++) {
		UINT32 bar = (reg - 0x10) / 4;
		if (reg >= 0x10 && bar < bars) {
			UINT32 size = f->bar_size[bar], low = f->cfg[0x10 + 4 * bar] & 0xf;
			bool upper = bar > 0 && (f->cfg[0x10 + 4 * (bar - 1)] & 6) == 4 &&
				     f->bar_size[bar - 1];
			UINT32 mask = upper ? 0xffffffff : size ? ~(size - 1) : 0;
			UINT8 keep = (UINT8)(mask >> (8 * (reg & 3)));
			UINT8 v = src[i] & keep;
			if ((reg & 3) == 0 && !upper)
				v = (v & ~0xf) | low;
			f->cfg[reg] = v;
			continue;
		}
		/* A bridge's window type nibbles are read-only. */
		if (bars == 2 && (reg == 0x1c || reg == 0x1d || reg == 0x24 || reg == 0x26))
			f->cfg[reg] = (src[i] & 0xf0) | (f->cfg[reg] & 0x0f);
		else
			f->cfg[reg] = src[i];
	}
}

static EFI_STATUS EFIAPI sim_pci(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, bool write,
				 EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				 UINTN Count, VOID *Buffer)
{
	UINTN size = (UINTN)1 << (Width & 3);
	UINT32 reg = (Address >> 32) ? (UINT32)(Address >> 32) : (Address & 0xff);
	struct sim_func *f =
	    find((UINT8)(Address >> 24), (UINT8)(Address >> 16), (UINT8)(Address >> 8));

	if (Width > EfiPciWidthUint64 || reg + size * Count > 4096)
		return EFI_INVALID_PARAMETER;
	for (UINTN i = 0; i < Count; i++, reg += size) {
		UINT8 *b = (UINT8 *)Buffer + i * size;
		if (write) {
			config_writes++;
			if (f)
				write_cfg(f, reg, b, size);
		} else if (f) {
			memcpy(b, f->cfg + reg, size);
		} else {
			memset(b, 0xff, size);
		}
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI sim_pci_read(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				      UINTN Count, VOID *Buffer)
{
	return sim_pci(This, false, Width, Address, Count, Buffer);
}

static EFI_STATUS EFIAPI sim_pci_write(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				       EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				       UINTN Count, VOID *Buffer)
{
	return sim_pci(This, true, Width, Address, Count, Buffer);
}

static struct __attribute__((packed)) {
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR d[4];
	EFI_ACPI_END_TAG_DESCRIPTOR end;
} apertures;

static EFI_STATUS EFIAPI sim_configuration(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, VOID **Resources)
{
	*Resources = &apertures;
	return EFI_SUCCESS;
}

static void aperture(int i, UINT8 type, UINT8 gran, UINT64 base, UINT64 len)
{
	apertures.d[i] = (EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR){
	    ACPI_ADDRESS_SPACE_DESCRIPTOR, 0x2b, type, 0, 0, gran, base, base + len - 1, 0, len};
}

static EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL sim_root = {
    .Pci = {sim_pci_read, sim_pci_write},
    .Configuration = sim_configuration,
};

static struct __attribute__((packed)) {
	ACPI_HID_DEVICE_PATH root;
	EFI_DEVICE_PATH_PROTOCOL end;
} root_path = {{{ACPI_DEVICE_PATH, ACPI_DP, {12, 0}}, EISA_PNP_ID(0x0a03), 0},
	       {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}};

static EFI_HANDLE root_handle;

static void remove_root(void)
{
	if (!root_handle)
		return;
	driver_disconnect(root_handle, NULL, NULL);
	protocol_uninstall_multiple(root_handle, &dp_guid, &root_path, &rb_guid, &sim_root, NULL);
	root_handle = NULL;
}

/* Host bridge, a device with I/O, 32- and 64-bit BARs, a Red Hat bridge reserving three
 * buses with a device behind it, and a multi-function device using functions 0 and 2. */
static void build_machine(void)
{
	nfuncs = 0;
	add_func(0, 0, 0, 0x29c08086, 0x060000, 0);
	struct sim_func *nic = add_func(0, 2, 0, 0x10001af4, 0x020000, 0);
	set_bar(nic, 0, 0x20, PCI_BAR_IO_SPACE);
	set_bar(nic, 1, 0x1000, 0);
	set_bar(nic, 4, 0x4000, PCI_BAR_MEM_TYPE_64 | PCI_BAR_MEM_PREFETCHABLE);
	nic->cfg[PCI_INTERRUPT_PIN_OFFSET] = 1;
	struct sim_func *br = add_func(0, 3, 0, 0x000c1b36, 0x060400, PCI_HEADER_TYPE_BRIDGE);
	set_bar(br, 0, 0x1000, 0);
	br->cfg[PCI_BRIDGE_PREFETCHABLE_MEMORY_BASE_OFFSET] = PCI_BRIDGE_PREF_RANGE_TYPE_64;
	br->cfg[PCI_BRIDGE_PREFETCHABLE_MEMORY_LIMIT_OFFSET] = PCI_BRIDGE_PREF_RANGE_TYPE_64;
	br->cfg[PCI_STATUS_OFFSET] = PCI_STATUS_CAPABILITIES_LIST;
	br->cfg[PCI_CAPABILITY_POINTER_OFFSET] = 0x40;
	UINT8 cap[32] = {PCI_CAP_ID_VENDOR_SPECIFIC, 0, 32, PCI_REDHAT_CAP_TYPE_RESOURCE_RESERVE,
			 3};
	memset(cap + 8, 0xff, 24);
	memcpy(br->cfg + 0x40, cap, sizeof(cap));
	struct sim_func *blk = add_func(3, 0, 0, 0x10421af4, 0x010000, 0);
	set_bar(blk, 1, 0x1000, 0);
	set_bar(blk, 4, 0x4000, PCI_BAR_MEM_TYPE_64 | PCI_BAR_MEM_PREFETCHABLE);
	add_func(0, 4, 0, 0x12348086, 0x0c0500, PCI_HEADER_TYPE_MULTI_FUNCTION);
	add_func(0, 4, 2, 0x12358086, 0x0c0500, 0);
	aperture(0, ACPI_ADDRESS_SPACE_TYPE_IO, 0, 0x6000, 0xa000);
	aperture(1, ACPI_ADDRESS_SPACE_TYPE_MEM, 32, 0xc0000000, 0x3c000000);
	aperture(2, ACPI_ADDRESS_SPACE_TYPE_MEM, 64, 0x800000000, 0x800000000);
	aperture(3, ACPI_ADDRESS_SPACE_TYPE_BUS, 0, 0, 256);
	apertures.end.Desc = ACPI_END_TAG_DESCRIPTOR;
}

/* (A test that stopped early may have left its root bridge behind.) */
static void install_root(void)
{
	remove_root();
	test_install_builtin_drivers();
	build_machine();
	ASSERT_STATUS(protocol_install_multiple(&root_handle, &dp_guid, &root_path, &rb_guid,
						&sim_root, NULL),
		      EFI_SUCCESS);
}

/* The PciIo of the child at bus:dev.fn, or NULL. */
static EFI_PCI_IO_PROTOCOL *child(UINTN bus, UINTN dev, UINTN fn, UINTN *count,
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

static UINT64 bar_base(EFI_PCI_IO_PROTOCOL *io, UINT8 bar, UINT64 *len, UINT64 *gran)
{
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *d;

	if (EFI_ERROR(io->GetBarAttributes(io, bar, NULL, (void **)&d)))
		return 0;
	UINT64 base = d->AddrRangeMin;
	*len = d->AddrLen;
	*gran = d->AddrSpaceGranularity;
	pool_free(d);
	return base;
}

static void check_machine(void)
{
	UINTN count;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	UINT64 len, gran, base;
	UINT16 cmd;

	EFI_PCI_IO_PROTOCOL *blk = child(1, 0, 0, &count, &path);
	EXPECT_EQ(count, 6);
	ASSERT(blk != NULL);
	CHAR16 *text = dp_to_text(path, false, false);
	EXPECT(text && !str16_cmp(text, u"PciRoot(0x0)/Pci(0x3,0x0)/Pci(0x0,0x0)"));
	pool_free(text);
	/* The bridge covers buses 1-3 (its reservation hint). */
	EXPECT_EQ(funcs[2].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET], 1);
	EXPECT_EQ(funcs[2].cfg[PCI_BRIDGE_SUBORDINATE_BUS_OFFSET], 3);
	base = bar_base(blk, 4, &len, &gran);
	EXPECT(base >= 0x800000000 && len == 0x4000 && gran == 64);
	EFI_PCI_IO_PROTOCOL *nic = child(0, 2, 0, &count, NULL);
	ASSERT(nic != NULL);
	EXPECT_EQ(bar_base(nic, 0, &len, &gran), 0x6000);
	base = bar_base(nic, 1, &len, &gran);
	EXPECT(base >= 0xc0000000 && base < 0xfc000000 && gran == 32);
	EXPECT(bar_base(nic, 4, &len, &gran) >= 0x800000000);
	EXPECT(bar_base(nic, 5, &len, &gran) == 0); /* the upper half is no BAR of its own */
	nic->Pci.Read(nic, EfiPciIoWidthUint16, PCI_COMMAND_OFFSET, 1, &cmd);
	EXPECT_EQ(cmd & (PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER),
		  PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE);
	EXPECT(child(0, 4, 2, &count, NULL) != NULL);
	EXPECT(child(0, 4, 1, &count, NULL) == NULL);
}

TEST(pci_bus_enumerates_numbers_and_assigns)
{
	install_root();
	ASSERT_STATUS(driver_connect(root_handle, NULL, NULL, false), EFI_SUCCESS);
	check_machine();
	remove_root();
}

TEST(pci_bus_stop_removes_children_and_start_rebuilds_them)
{
	UINTN count;
	UINT64 len, gran, first;

	install_root();
	ASSERT_STATUS(driver_connect(root_handle, NULL, NULL, false), EFI_SUCCESS);
	first = bar_base(child(1, 0, 0, &count, NULL), 4, &len, &gran);
	EXPECT_STATUS(driver_disconnect(root_handle, NULL, NULL), EFI_SUCCESS);
	child(0, 0, 0, &count, NULL);
	EXPECT_EQ(count, 0);
	ASSERT_STATUS(driver_connect(root_handle, NULL, NULL, false), EFI_SUCCESS);
	check_machine();
	EXPECT_EQ(bar_base(child(1, 0, 0, &count, NULL), 4, &len, &gran), first);
	remove_root();
}

TEST(pci_io_checks_its_arguments)
{
	UINTN count, s, b, d, f;
	UINT32 v;
	UINT64 r;
	void *res;

	install_root();
	ASSERT_STATUS(driver_connect(root_handle, NULL, NULL, false), EFI_SUCCESS);
	EFI_PCI_IO_PROTOCOL *nic = child(0, 2, 0, &count, NULL);
	ASSERT(nic != NULL);
	EXPECT_STATUS(nic->Pci.Read(nic, EfiPciIoWidthUint32, 0, 1, &v), EFI_SUCCESS);
	EXPECT_EQ(v, 0x10001af4);
	EXPECT_STATUS(nic->Pci.Read(nic, EfiPciIoWidthUint32, 4094, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->Pci.Read(nic, EfiPciIoWidthMaximum, 0, 1, &v), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(nic->Mem.Read(nic, EfiPciIoWidthUint32, 0, 0, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->Mem.Read(nic, EfiPciIoWidthUint32, 1, 0x1000, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->Mem.Read(nic, EfiPciIoWidthUint32, 6, 0, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->Io.Read(nic, EfiPciIoWidthUint8, 0, 0x20, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->GetLocation(nic, &s, &b, NULL, &f), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(nic->GetLocation(nic, &s, &b, &d, &f), EFI_SUCCESS);
	EXPECT_STATUS(nic->GetBarAttributes(nic, 2, NULL, &res), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationSupported, 0, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_VGA_IO, NULL),
		      EFI_UNSUPPORTED); /* not a VGA controller */
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, NULL),
		      EFI_SUCCESS);
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationGet, 0, &r), EFI_SUCCESS);
	EXPECT(r & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER);
	EXPECT(funcs[1].cfg[PCI_COMMAND_OFFSET] & PCI_COMMAND_BUS_MASTER);
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 1, NULL, &r), EFI_INVALID_PARAMETER);
	remove_root();
	/* Stop turned bus mastering off again. */
	EXPECT(!(funcs[1].cfg[PCI_COMMAND_OFFSET] & PCI_COMMAND_BUS_MASTER));
}
