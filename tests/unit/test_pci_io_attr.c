/* EFI_PCI_IO_PROTOCOL attributes (drivers/pci/pci_io_attr.c, UEFI 2.10 14.4): Get follows
 * the command register; Set, Enable and Disable change its IO, MEMORY and BUS_MASTER bits
 * and refuse what the function does not support (legacy VGA, IDE and ISA decoding only for
 * root-bus functions of those classes) or cannot have together (10- and 16-bit decodes);
 * GetBarAttributes describes a BAR as an ACPI QWORD descriptor; SetBarAttributes changes
 * nothing. */
#include "support/test.h"
#include "pci_sim.h"
#include <ember/core/core.h>
#include <efi/acpi_resource.h>

#define COMMAND_ATTRIBUTES                                                                         \
	(EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)
#define VGA_ATTRIBUTES                                                                             \
	(EFI_PCI_IO_ATTRIBUTE_VGA_MEMORY | EFI_PCI_IO_ATTRIBUTE_VGA_IO |                           \
	 EFI_PCI_IO_ATTRIBUTE_VGA_IO_16 | EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO |                    \
	 EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO_16)
#define IDE_ATTRIBUTES (EFI_PCI_IO_ATTRIBUTE_IDE_PRIMARY_IO | EFI_PCI_IO_ATTRIBUTE_IDE_SECONDARY_IO)
#define ISA_ATTRIBUTES                                                                             \
	(EFI_PCI_IO_ATTRIBUTE_ISA_IO | EFI_PCI_IO_ATTRIBUTE_ISA_IO_16 |                            \
	 EFI_PCI_IO_ATTRIBUTE_ISA_MOTHERBOARD_IO)

/* The standard machine plus a VGA controller (00:05.0), an IDE controller (00:06.0) and an
 * ISA bridge (00:07.0) on the root bus, and a second VGA controller behind the bridge
 * (01:01.0). */
static bool start_legacy_machine(void)
{
	pci_sim_standard_machine();
	pci_sim_set_bar(pci_sim_add_func(0, 5, 0, 0x11111234, 0x030000, 0), 0, 0x1000000,
			PCI_BAR_MEM_PREFETCHABLE);
	pci_sim_add_func(0, 6, 0, 0x70108086, 0x010180, 0);
	pci_sim_add_func(0, 7, 0, 0x70008086, 0x060100, 0);
	pci_sim_add_func(3, 1, 0, 0x11111234, 0x030000, 0);
	return pci_sim_start();
}

static UINT64 supported(EFI_PCI_IO_PROTOCOL *io)
{
	UINT64 r = 0;

	EXPECT_STATUS(io->Attributes(io, EfiPciIoAttributeOperationSupported, 0, &r), EFI_SUCCESS);
	return r;
}

static UINT64 current(EFI_PCI_IO_PROTOCOL *io)
{
	UINT64 r = 0;

	EXPECT_STATUS(io->Attributes(io, EfiPciIoAttributeOperationGet, 0, &r), EFI_SUCCESS);
	return r;
}

TEST(pci_io_attributes_supported_by_class_and_place)
{
	UINTN n;

	ASSERT(start_legacy_machine());
	EFI_PCI_IO_PROTOCOL *nic = pci_sim_child(0, 2, 0, &n, NULL);
	EFI_PCI_IO_PROTOCOL *vga = pci_sim_child(0, 5, 0, &n, NULL);
	EFI_PCI_IO_PROTOCOL *ide = pci_sim_child(0, 6, 0, &n, NULL);
	EFI_PCI_IO_PROTOCOL *isa = pci_sim_child(0, 7, 0, &n, NULL);
	EFI_PCI_IO_PROTOCOL *vga_behind = pci_sim_child(1, 1, 0, &n, NULL);
	ASSERT(nic && vga && ide && isa && vga_behind);
	EXPECT_EQ(supported(nic), COMMAND_ATTRIBUTES | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	EXPECT_EQ(supported(vga),
		  COMMAND_ATTRIBUTES | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE | VGA_ATTRIBUTES);
	EXPECT_EQ(supported(ide),
		  COMMAND_ATTRIBUTES | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE | IDE_ATTRIBUTES);
	EXPECT_EQ(supported(isa),
		  COMMAND_ATTRIBUTES | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE | ISA_ATTRIBUTES);
	/* The bridge above does not forward the legacy ranges. */
	EXPECT_EQ(supported(vga_behind),
		  COMMAND_ATTRIBUTES | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	pci_sim_remove();
}

TEST(pci_io_attributes_follow_and_change_the_command_register)
{
	UINTN n;
	UINT16 cmd;
	UINT64 r;

	ASSERT(start_legacy_machine());
	EFI_PCI_IO_PROTOCOL *nic = pci_sim_child(0, 2, 0, &n, NULL);
	ASSERT(nic != NULL);
	UINT8 *command = &pci_sim_funcs[1].cfg[PCI_COMMAND_OFFSET];
	/* Enumeration turned decoding on; bus mastering is the driver's to ask for. */
	EXPECT_EQ(current(nic), EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY);
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, NULL),
		      EFI_SUCCESS);
	EXPECT_EQ(*command & 7,
		  PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER);
	EXPECT_STATUS(
	    nic->Attributes(nic, EfiPciIoAttributeOperationDisable, EFI_PCI_IO_ATTRIBUTE_IO, &r),
	    EFI_SUCCESS);
	EXPECT_EQ(*command & 7, PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER);
	EXPECT_EQ(current(nic), EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER);
	/* Set replaces everything. */
	EXPECT_STATUS(nic->Attributes(
			  nic, EfiPciIoAttributeOperationSet,
			  EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE, NULL),
		      EFI_SUCCESS);
	EXPECT_EQ(*command & 7, PCI_COMMAND_IO_SPACE);
	EXPECT_EQ(current(nic), EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	/* Someone writing the command register directly: Get reports what the device does. */
	cmd = PCI_COMMAND_MEMORY_SPACE;
	EXPECT_STATUS(nic->Pci.Write(nic, EfiPciIoWidthUint16, PCI_COMMAND_OFFSET, 1, &cmd),
		      EFI_SUCCESS);
	EXPECT_EQ(current(nic),
		  EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	/* Unsupported bits change nothing, whatever the operation. */
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationSet,
				      EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_VGA_IO, NULL),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationDisable,
				      EFI_PCI_IO_ATTRIBUTE_ISA_IO, NULL),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_EMBEDDED_ROM, NULL),
		      EFI_UNSUPPORTED);
	EXPECT_EQ(*command & 7, PCI_COMMAND_MEMORY_SPACE);
	/* Operations and results. */
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationMaximum, 0, &r),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(nic->Attributes(nic, EfiPciIoAttributeOperationGet, 0, NULL),
		      EFI_INVALID_PARAMETER);
	pci_sim_remove();
}

TEST(pci_io_attributes_refuse_both_legacy_decode_widths)
{
	UINTN n;

	ASSERT(start_legacy_machine());
	EFI_PCI_IO_PROTOCOL *vga = pci_sim_child(0, 5, 0, &n, NULL);
	EFI_PCI_IO_PROTOCOL *isa = pci_sim_child(0, 7, 0, &n, NULL);
	ASSERT(vga && isa);
	EXPECT_STATUS(vga->Attributes(vga, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_VGA_IO | EFI_PCI_IO_ATTRIBUTE_VGA_IO_16,
				      NULL),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(vga->Attributes(vga, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_VGA_IO | EFI_PCI_IO_ATTRIBUTE_VGA_MEMORY,
				      NULL),
		      EFI_SUCCESS);
	EXPECT(current(vga) & EFI_PCI_IO_ATTRIBUTE_VGA_IO);
	/* Enabling the other width on top of the first is the same conflict. */
	EXPECT_STATUS(vga->Attributes(vga, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_VGA_IO_16, NULL),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(vga->Attributes(vga, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO |
					  EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO_16,
				      NULL),
		      EFI_UNSUPPORTED);
	/* After turning the 10-bit decode off, the 16-bit one is fine. */
	EXPECT_STATUS(vga->Attributes(vga, EfiPciIoAttributeOperationDisable,
				      EFI_PCI_IO_ATTRIBUTE_VGA_IO, NULL),
		      EFI_SUCCESS);
	EXPECT_STATUS(vga->Attributes(vga, EfiPciIoAttributeOperationEnable,
				      EFI_PCI_IO_ATTRIBUTE_VGA_IO_16, NULL),
		      EFI_SUCCESS);
	EXPECT_EQ(current(vga) & VGA_ATTRIBUTES,
		  EFI_PCI_IO_ATTRIBUTE_VGA_IO_16 | EFI_PCI_IO_ATTRIBUTE_VGA_MEMORY);
	EXPECT_STATUS(isa->Attributes(isa, EfiPciIoAttributeOperationSet,
				      EFI_PCI_IO_ATTRIBUTE_ISA_IO | EFI_PCI_IO_ATTRIBUTE_ISA_IO_16,
				      NULL),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(isa->Attributes(isa, EfiPciIoAttributeOperationSet,
				      EFI_PCI_IO_ATTRIBUTE_ISA_IO_16 |
					  EFI_PCI_IO_ATTRIBUTE_ISA_MOTHERBOARD_IO,
				      NULL),
		      EFI_SUCCESS);
	pci_sim_remove();
}

TEST(pci_io_bar_attributes_describe_each_bar)
{
	UINTN n;
	UINT64 supports = 1, offset, length;
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *d;

	ASSERT(start_legacy_machine());
	EFI_PCI_IO_PROTOCOL *nic = pci_sim_child(0, 2, 0, &n, NULL);
	ASSERT(nic != NULL);
	/* No BAR attribute can be set, so none is offered. */
	EXPECT_STATUS(nic->GetBarAttributes(nic, 1, &supports, NULL), EFI_SUCCESS);
	EXPECT_EQ(supports, 0);
	EXPECT_STATUS(nic->GetBarAttributes(nic, 1, NULL, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(nic->GetBarAttributes(nic, 6, &supports, NULL), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->GetBarAttributes(nic, 5, &supports, NULL), EFI_UNSUPPORTED);

	ASSERT_STATUS(nic->GetBarAttributes(nic, 0, NULL, (void **)&d), EFI_SUCCESS);
	EXPECT_EQ(d->Desc, ACPI_ADDRESS_SPACE_DESCRIPTOR);
	EXPECT_EQ(d->Len, 0x2b);
	EXPECT_EQ(d->ResType, ACPI_ADDRESS_SPACE_TYPE_IO);
	EXPECT_EQ(d->AddrLen, 0x20);
	EXPECT_EQ(d->AddrRangeMax, d->AddrRangeMin + 0x1f);
	EXPECT_EQ(((EFI_ACPI_END_TAG_DESCRIPTOR *)(d + 1))->Desc, ACPI_END_TAG_DESCRIPTOR);
	pool_free(d);
	ASSERT_STATUS(nic->GetBarAttributes(nic, 1, &supports, (void **)&d), EFI_SUCCESS);
	EXPECT_EQ(d->ResType, ACPI_ADDRESS_SPACE_TYPE_MEM);
	EXPECT_EQ(d->AddrSpaceGranularity, 32);
	EXPECT_EQ(d->SpecificFlag, 0);
	EXPECT_EQ(d->AddrLen, 0x1000);
	pool_free(d);
	ASSERT_STATUS(nic->GetBarAttributes(nic, 4, NULL, (void **)&d), EFI_SUCCESS);
	EXPECT_EQ(d->AddrSpaceGranularity, 64);
	EXPECT_EQ(d->SpecificFlag, EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE_PREFETCHABLE);
	EXPECT_EQ(d->AddrLen, 0x4000);
	pool_free(d);

	/* SetBarAttributes: a range inside a BAR with no attribute is all it accepts. */
	offset = 0x100, length = 0x100;
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 1, &offset, &length), EFI_SUCCESS);
	EXPECT(offset == 0x100 && length == 0x100);
	EXPECT_STATUS(nic->SetBarAttributes(nic, EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE, 1,
					    &offset, &length),
		      EFI_UNSUPPORTED);
	offset = 0xf00, length = 0x101;
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 1, &offset, &length), EFI_UNSUPPORTED);
	offset = 0x1001, length = 0;
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 1, &offset, &length), EFI_UNSUPPORTED);
	offset = 0, length = 1;
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 2, &offset, &length), EFI_UNSUPPORTED);
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 1, NULL, &length), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(nic->SetBarAttributes(nic, 0, 1, &offset, NULL), EFI_INVALID_PARAMETER);
	pci_sim_remove();
}
