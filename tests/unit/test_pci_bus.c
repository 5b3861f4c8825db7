/* The PCI bus driver (drivers/pci) over a simulated root bridge: functions behind a bridge
 * appear only once it has bus numbers; BARs are sized and placed in the apertures; decoding
 * is enabled; children carry PciIo and Pci() device paths; Stop removes them and a second
 * Start rebuilds the same. Runs under ASan too, which the QEMU tests cannot. */
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <efi/pci.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/pci_root_bridge_io.h>

#include <efi/protocol/driver_binding.h>
#include "pci_sim.h"

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

static void install_root(void)
{
	pci_sim_standard_machine();
	pci_sim_install();
}

static void check_machine(void)
{
	UINTN count;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	UINT64 len, gran, base;
	UINT16 cmd;

	EFI_PCI_IO_PROTOCOL *blk = pci_sim_child(1, 0, 0, &count, &path);
	EXPECT_EQ(count, 6);
	ASSERT(blk != NULL);
	CHAR16 *text = dp_to_text(path, false, false);
	EXPECT(text && !str16_cmp(text, u"PciRoot(0x0)/Pci(0x3,0x0)/Pci(0x0,0x0)"));
	pool_free(text);
	/* The bridge covers buses 1-3 (its reservation hint). */
	EXPECT_EQ(pci_sim_funcs[2].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET], 1);
	EXPECT_EQ(pci_sim_funcs[2].cfg[PCI_BRIDGE_SUBORDINATE_BUS_OFFSET], 3);
	base = pci_sim_bar(blk, 4, &len, &gran);
	EXPECT(base >= 0x800000000 && len == 0x4000 && gran == 64);
	EFI_PCI_IO_PROTOCOL *nic = pci_sim_child(0, 2, 0, &count, NULL);
	ASSERT(nic != NULL);
	EXPECT_EQ(pci_sim_bar(nic, 0, &len, &gran), 0x6000);
	base = pci_sim_bar(nic, 1, &len, &gran);
	EXPECT(base >= 0xc0000000 && base < 0xfc000000 && gran == 32);
	EXPECT(pci_sim_bar(nic, 4, &len, &gran) >= 0x800000000);
	EXPECT(pci_sim_bar(nic, 5, &len, &gran) == 0); /* the upper half is no BAR of its own */
	nic->Pci.Read(nic, EfiPciIoWidthUint16, PCI_COMMAND_OFFSET, 1, &cmd);
	EXPECT_EQ(cmd & (PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER),
		  PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE);
	EXPECT(pci_sim_child(0, 4, 2, &count, NULL) != NULL);
	EXPECT(pci_sim_child(0, 4, 1, &count, NULL) == NULL);
}

TEST(pci_bus_enumerates_numbers_and_assigns)
{
	install_root();
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	check_machine();
	pci_sim_remove();
}

TEST(pci_bus_stop_removes_children_and_start_rebuilds_them)
{
	UINTN count;
	UINT64 len, gran, first;

	install_root();
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	first = pci_sim_bar(pci_sim_child(1, 0, 0, &count, NULL), 4, &len, &gran);
	EXPECT_STATUS(driver_disconnect(pci_sim_root_handle, NULL, NULL), EFI_SUCCESS);
	pci_sim_child(0, 0, 0, &count, NULL);
	EXPECT_EQ(count, 0);
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	check_machine();
	EXPECT_EQ(pci_sim_bar(pci_sim_child(1, 0, 0, &count, NULL), 4, &len, &gran), first);
	pci_sim_remove();
}

TEST(pci_io_checks_its_arguments)
{
	UINTN count, s, b, d, f;
	UINT32 v;
	UINT64 r;
	void *res;

	install_root();
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	EFI_PCI_IO_PROTOCOL *nic = pci_sim_child(0, 2, 0, &count, NULL);
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
	EXPECT(pci_sim_funcs[1].cfg[PCI_COMMAND_OFFSET] & PCI_COMMAND_BUS_MASTER);
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 1, NULL, &r), EFI_INVALID_PARAMETER);
	pci_sim_remove();
	/* Stop turned bus mastering off again. */
	EXPECT(!(pci_sim_funcs[1].cfg[PCI_COMMAND_OFFSET] & PCI_COMMAND_BUS_MASTER));
}

/* ---- Enumeration corner cases ---- */

static UINT16 cfg16(const struct pci_sim_func *f, UINT32 reg)
{
	return (UINT16)(f->cfg[reg] | f->cfg[reg + 1] << 8);
}

static UINT32 cfg32(const struct pci_sim_func *f, UINT32 reg)
{
	return cfg16(f, reg) | (UINT32)cfg16(f, reg + 2) << 16;
}

/* A bridge's memory and prefetchable windows, as [base, limit]. */
static void bridge_windows(const struct pci_sim_func *b, UINT64 mem[2], UINT64 pref[2])
{
	mem[0] = (UINT64)(cfg16(b, PCI_BRIDGE_MEMORY_BASE_OFFSET) & 0xfff0) << 16;
	mem[1] = (UINT64)(cfg16(b, PCI_BRIDGE_MEMORY_LIMIT_OFFSET) & 0xfff0) << 16 | 0xfffff;
	pref[0] = (UINT64)(cfg16(b, PCI_BRIDGE_PREFETCHABLE_MEMORY_BASE_OFFSET) & 0xfff0) << 16 |
		  (UINT64)cfg32(b, PCI_BRIDGE_PREFETCHABLE_BASE_UPPER_OFFSET) << 32;
	pref[1] = (UINT64)(cfg16(b, PCI_BRIDGE_PREFETCHABLE_MEMORY_LIMIT_OFFSET) & 0xfff0) << 16 |
		  (UINT64)cfg32(b, PCI_BRIDGE_PREFETCHABLE_LIMIT_UPPER_OFFSET) << 32 | 0xfffff;
}

static struct pci_sim_func *add_bridge(UINT8 dev, UINT16 vendor, bool pref64)
{
	struct pci_sim_func *b =
	    pci_sim_add_func(0, dev, 0, 0x000c0000 | vendor, 0x060400, PCI_HEADER_TYPE_BRIDGE);
	UINT8 type = pref64 ? PCI_BRIDGE_PREF_RANGE_TYPE_64 : PCI_BRIDGE_PREF_RANGE_TYPE_32;

	b->cfg[PCI_BRIDGE_PREFETCHABLE_MEMORY_BASE_OFFSET] = type;
	b->cfg[PCI_BRIDGE_PREFETCHABLE_MEMORY_LIMIT_OFFSET] = type;
	return b;
}

/* Red Hat's reservation capability at pos: buses, I/O, memory, 32- and 64-bit prefetchable
 * (all ones: no hint). */
static void reserve_cap(struct pci_sim_func *b, UINT8 pos, UINT8 next, UINT32 bus, UINT64 io,
			UINT32 mem, UINT32 pref32, UINT64 pref64)
{
	UINT8 *c = b->cfg + pos;

	c[0] = PCI_CAP_ID_VENDOR_SPECIFIC;
	c[1] = next;
	c[2] = 32;
	c[3] = PCI_REDHAT_CAP_TYPE_RESOURCE_RESERVE;
	memcpy(c + 4, &bus, 4);
	memcpy(c + 8, &io, 8);
	memcpy(c + 16, &mem, 4);
	memcpy(c + 20, &pref32, 4);
	memcpy(c + 24, &pref64, 8);
}

TEST(pci_bus_reservation_hints_and_plain_bridges)
{
	UINTN count;
	UINT64 mem[2], pref[2], len, gran;

	pci_sim_reset();
	pci_sim_aperture(0, ACPI_ADDRESS_SPACE_TYPE_IO, 0, 0x6000, 0xa000);
	pci_sim_aperture(1, ACPI_ADDRESS_SPACE_TYPE_MEM, 32, 0xc0000000, 0x3c000000);
	pci_sim_aperture(2, ACPI_ADDRESS_SPACE_TYPE_MEM, 64, 0x800000000, 0x800000000);
	/* No bus range given: a zero-length descriptor is no limit. */
	pci_sim_aperture(3, ACPI_ADDRESS_SPACE_TYPE_BUS, 0, 0, 0);
	/* 00:01.0, Red Hat: a PCIe capability first, then the hint: buses 1-3, 2 MiB memory,
	 * 1 MiB 32-bit prefetchable (folded into memory), 8 MiB 64-bit prefetchable. */
	struct pci_sim_func *hinted = add_bridge(1, PCI_VENDOR_ID_REDHAT, true);
	hinted->cfg[PCI_STATUS_OFFSET] = PCI_STATUS_CAPABILITIES_LIST;
	hinted->cfg[PCI_CAPABILITY_POINTER_OFFSET] = 0x40;
	hinted->cfg[0x40] = 0x10, hinted->cfg[0x41] = 0x60;
	reserve_cap(hinted, 0x60, 0, 3, ~0ULL, 2 << 20, 1 << 20, 8 << 20);
	/* 00:02.0, another vendor with a 32-bit prefetchable window and a device behind. */
	add_bridge(2, 0x8086, false);
	pci_sim_set_bar(pci_sim_add_func(2, 0, 0, 0x10421af4, 0x010000, 0), 4, 0x4000,
			PCI_BAR_MEM_TYPE_64 | PCI_BAR_MEM_PREFETCHABLE);
	/* 00:03.0, Red Hat without capabilities; 00:04.0, Red Hat with a capability loop. */
	add_bridge(3, PCI_VENDOR_ID_REDHAT, true);
	struct pci_sim_func *looped = add_bridge(4, PCI_VENDOR_ID_REDHAT, true);
	looped->cfg[PCI_STATUS_OFFSET] = PCI_STATUS_CAPABILITIES_LIST;
	looped->cfg[PCI_CAPABILITY_POINTER_OFFSET] = 0x40;
	looped->cfg[0x40] = 0x10, looped->cfg[0x41] = 0x40;
	pci_sim_install();
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);

	EXPECT_EQ(pci_sim_funcs[0].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET], 1);
	EXPECT_EQ(pci_sim_funcs[0].cfg[PCI_BRIDGE_SUBORDINATE_BUS_OFFSET], 3);
	bridge_windows(&pci_sim_funcs[0], mem, pref);
	EXPECT(mem[0] >= 0xc0000000 && mem[1] - mem[0] + 1 >= (3 << 20));
	EXPECT(pref[0] >= 0x800000000ULL && pref[1] - pref[0] + 1 >= (8 << 20));
	/* No hints: each bridge covers just its own bus. */
	for (int i = 1; i <= 4; i++)
		EXPECT_EQ(pci_sim_funcs[i].cfg[PCI_BRIDGE_SUBORDINATE_BUS_OFFSET],
			  pci_sim_funcs[i].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET]);
	EXPECT_EQ(pci_sim_funcs[1].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET], 4);
	/* Behind a bridge without a 64-bit window, a 64-bit BAR is placed below 4 GiB, in
	 * its memory window (Ember opens no 32-bit prefetchable windows). */
	EFI_PCI_IO_PROTOCOL *behind = pci_sim_child(4, 0, 0, &count, NULL);
	ASSERT(behind != NULL);
	EXPECT_EQ(count, 5);
	UINT64 base = pci_sim_bar(behind, 4, &len, &gran);
	EXPECT(base >= 0xc0000000 && base + len <= 0xfc000000);
	bridge_windows(&pci_sim_funcs[1], mem, pref);
	EXPECT(base >= mem[0] && base + len - 1 <= mem[1]);
	EXPECT(pref[0] > pref[1]); /* closed */
	pci_sim_remove();
}

TEST(pci_bus_bridges_beyond_the_bus_range_stay_unnumbered)
{
	UINTN count;

	pci_sim_reset();
	pci_sim_aperture(0, ACPI_ADDRESS_SPACE_TYPE_IO, 0, 0x6000, 0xa000);
	pci_sim_aperture(1, ACPI_ADDRESS_SPACE_TYPE_MEM, 32, 0xc0000000, 0x3c000000);
	pci_sim_aperture(2, ACPI_ADDRESS_SPACE_TYPE_BUS, 0, 0, 2); /* buses 0 and 1 */
	add_bridge(1, 0x8086, false);
	add_bridge(2, 0x8086, false);
	pci_sim_add_func(1, 0, 0, 0x10421af4, 0x010000, 0);
	pci_sim_add_func(2, 0, 0, 0x10421af4, 0x010000, 0);
	pci_sim_install();
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	EXPECT(pci_sim_child(1, 0, 0, &count, NULL) != NULL);
	EXPECT_EQ(count, 3); /* both bridges and the device behind the first */
	EXPECT_EQ(pci_sim_funcs[1].cfg[PCI_BRIDGE_SECONDARY_BUS_OFFSET], 0);
	EXPECT(pci_sim_child(0, 2, 0, &count, NULL) != NULL);
	pci_sim_remove();
}

TEST(pci_bus_sizes_16_bit_io_decoders)
{
	UINTN count;
	UINT64 len, gran;

	pci_sim_standard_machine();
	struct pci_sim_func *legacy = pci_sim_add_func(0, 5, 0, 0x80861234, 0x010180, 0);
	legacy->io16 = true;
	pci_sim_set_bar(legacy, 0, 0x100, PCI_BAR_IO_SPACE);
	ASSERT(pci_sim_start());
	EFI_PCI_IO_PROTOCOL *io = pci_sim_child(0, 5, 0, &count, NULL);
	ASSERT(io != NULL);
	UINT64 base = pci_sim_bar(io, 0, &len, &gran);
	EXPECT(base >= 0x6000 && base + len <= 0x10000 && len == 0x100);
	EXPECT(legacy->cfg[PCI_COMMAND_OFFSET] & PCI_COMMAND_IO_SPACE);
	pci_sim_remove();
}

/* Arm's way: the I/O aperture is where the CPU sees it (MMIO), with a translation offset
 * back to PCI I/O space (UEFI 2.7 on); BARs take PCI addresses. */
TEST(pci_bus_takes_apertures_as_host_addresses_with_their_translation)
{
	UINTN count;
	UINT64 len, gran;

	pci_sim_standard_machine();
	pci_sim_aperture(0, ACPI_ADDRESS_SPACE_TYPE_IO, 0, 0x3eff1000, 0xf000);
	pci_sim_aperture_translation(0, 0 - 0x3eff0000ULL);
	ASSERT(pci_sim_start());
	EFI_PCI_IO_PROTOCOL *nic = pci_sim_child(0, 2, 0, &count, NULL);
	ASSERT(nic != NULL);
	EXPECT_EQ(pci_sim_bar(nic, 0, &len, &gran), 0x1000);
	pci_sim_remove();
}

TEST(pci_bus_leaves_a_bar_that_does_not_fit_unassigned)
{
	UINTN count;
	UINT64 len, gran;
	UINT32 v;

	pci_sim_standard_machine();
	struct pci_sim_func *big = pci_sim_add_func(0, 5, 0, 0x80861234, 0x020000, 0);
	pci_sim_set_bar(big, 0, 0x40, PCI_BAR_IO_SPACE);
	pci_sim_set_bar(big, 1, 0x40000000, 0); /* 1 GiB: larger than the 32-bit aperture */
	ASSERT(pci_sim_start());
	EFI_PCI_IO_PROTOCOL *io = pci_sim_child(0, 5, 0, &count, NULL);
	ASSERT(io != NULL);
	EXPECT_EQ(pci_sim_bar(io, 1, &len, &gran), 0);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint32, 1, 0, 1, &v), EFI_UNSUPPORTED);
	EXPECT(pci_sim_bar(io, 0, &len, &gran) >= 0x6000);
	/* Memory decoding stays off; I/O is on. */
	EXPECT_EQ(big->cfg[PCI_COMMAND_OFFSET] & 3, PCI_COMMAND_IO_SPACE);
	/* The others were placed as usual. */
	EXPECT(pci_sim_child(1, 0, 0, &count, NULL) != NULL);
	pci_sim_remove();
}

TEST(pci_bus_start_without_resources_fails_and_releases_the_root_bridge)
{
	UINTN count;

	pci_sim_standard_machine();
	pci_sim.configuration_status = EFI_DEVICE_ERROR;
	pci_sim_install();
	EXPECT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_NOT_FOUND);
	pci_sim_child(0, 0, 0, &count, NULL);
	EXPECT_EQ(count, 0);
	/* Nothing held: once the resources are there, Start works. */
	pci_sim.configuration_status = EFI_SUCCESS;
	EXPECT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	pci_sim_child(0, 0, 0, &count, NULL);
	EXPECT_EQ(count, 6);
	pci_sim_remove();
}

TEST(pci_bus_goes_on_when_a_child_cannot_be_made)
{
	UINTN count;
	EFI_HANDLE squatter = NULL;
	EFI_DEVICE_PATH_PROTOCOL *taken = dp_from_text(u"PciRoot(0x0)/Pci(0x2,0x0)");

	/* Someone already has the NIC's device path: its handle cannot be made. */
	ASSERT(taken != NULL);
	ASSERT_STATUS(protocol_install(&squatter, &dp_guid, taken), EFI_SUCCESS);
	pci_sim_standard_machine();
	EXPECT(pci_sim_start());
	EXPECT(pci_sim_child(0, 2, 0, &count, NULL) == NULL);
	EXPECT_EQ(count, 5);
	EXPECT(pci_sim_child(1, 0, 0, &count, NULL) != NULL);
	pci_sim_remove();
	protocol_uninstall(squatter, &dp_guid, taken);
	pool_free(taken);
}

/* A driver for the SMBus controller (00:04.0) whose Stop can be told to fail. */
static bool smbus_stop_fails;

static EFI_STATUS EFIAPI smbus_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
					 EFI_DEVICE_PATH_PROTOCOL *rest)
{
	EFI_PCI_IO_PROTOCOL *io;
	UINT32 id = 0;

	if (EFI_ERROR(protocol_open(c, &pci_io_guid, (void **)&io, this->DriverBindingHandle, c,
				    EFI_OPEN_PROTOCOL_BY_DRIVER)))
		return EFI_UNSUPPORTED;
	io->Pci.Read(io, EfiPciIoWidthUint32, 0, 1, &id);
	protocol_close(c, &pci_io_guid, this->DriverBindingHandle, c);
	return id == 0x12348086 ? EFI_SUCCESS : EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI smbus_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				     EFI_DEVICE_PATH_PROTOCOL *rest)
{
	void *io;

	return protocol_open(c, &pci_io_guid, &io, this->DriverBindingHandle, c,
			     EFI_OPEN_PROTOCOL_BY_DRIVER);
}

static EFI_STATUS EFIAPI smbus_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c, UINTN n,
				    EFI_HANDLE *kids)
{
	if (smbus_stop_fails)
		return EFI_DEVICE_ERROR;
	return protocol_close(c, &pci_io_guid, this->DriverBindingHandle, c);
}

static EFI_DRIVER_BINDING_PROTOCOL smbus_driver = {smbus_supported, smbus_start, smbus_stop, 0x10};

TEST(pci_bus_stop_keeps_a_child_whose_driver_will_not_stop)
{
	static const EFI_GUID db_guid = EFI_DRIVER_BINDING_PROTOCOL_GUID;
	EFI_HANDLE driver = NULL, smbus_handle = NULL, *handles;
	UINTN count;

	pci_sim_standard_machine();
	ASSERT(pci_sim_start());
	ASSERT_STATUS(protocol_install(&driver, &db_guid, &smbus_driver), EFI_SUCCESS);
	smbus_driver.ImageHandle = smbus_driver.DriverBindingHandle = driver;
	ASSERT_STATUS(handle_locate_buffer(ByProtocol, &pci_io_guid, NULL, &count, &handles),
		      EFI_SUCCESS);
	for (UINTN i = 0; i < count; i++) {
		EFI_HANDLE list[] = {driver, NULL};
		if (!EFI_ERROR(driver_connect(handles[i], list, NULL, false)))
			smbus_handle = handles[i];
	}
	pool_free(handles);
	ASSERT(smbus_handle != NULL);

	smbus_stop_fails = true;
	EXPECT(EFI_ERROR(driver_disconnect(pci_sim_root_handle, NULL, NULL)));
	/* The child that could not be stopped is still whole; the others are gone. */
	EXPECT(pci_sim_child(0, 4, 0, &count, NULL) != NULL);
	EXPECT_EQ(count, 1);
	smbus_stop_fails = false;
	EXPECT_STATUS(driver_disconnect(pci_sim_root_handle, NULL, NULL), EFI_SUCCESS);
	pci_sim_child(0, 0, 0, &count, NULL);
	EXPECT_EQ(count, 0);
	/* And the bus driver can start again. */
	EXPECT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	pci_sim_remove();
	protocol_uninstall(driver, &db_guid, &smbus_driver);
}
