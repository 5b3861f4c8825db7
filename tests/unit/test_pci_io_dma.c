/* EFI_PCI_IO_PROTOCOL DMA members (drivers/pci/pci_io_dma.c, UEFI 2.10 14.4) over the
 * simulated root bridge: Map, Unmap, AllocateBuffer, FreeBuffer and Flush go to the root
 * bridge, as the 64-bit operations and with DUAL_ADDRESS_CYCLE once the device's driver
 * enabled that attribute; PciIo's own argument rules hold before the root bridge is asked. */
#include "support/test.h"
#include "pci_sim.h"
#include <ember/core/core.h>

static EFI_PCI_IO_PROTOCOL *start_nic(void)
{
	UINTN count;

	pci_sim_standard_machine();
	if (!pci_sim_start())
		return NULL;
	return pci_sim_child(0, 2, 0, &count, NULL);
}

TEST(pci_io_map_uses_32_or_64_bit_operations)
{
	static UINT8 buffer[512];
	UINTN bytes = sizeof(buffer);
	EFI_PHYSICAL_ADDRESS device = 0;
	void *mapping = NULL;
	EFI_PCI_IO_PROTOCOL *io = start_nic();

	ASSERT(io != NULL);
	EXPECT_STATUS(
	    io->Map(io, EfiPciIoOperationBusMasterWrite, buffer, &bytes, &device, &mapping),
	    EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.width, EfiPciOperationBusMasterWrite);
	EXPECT_EQ(pci_sim.last.count, sizeof(buffer));
	EXPECT_EQ(device, (UINTN)buffer);
	EXPECT_STATUS(io->Unmap(io, mapping), EFI_SUCCESS);
	EXPECT(pci_sim.last.buffer == mapping);
	EXPECT_EQ(pci_sim.unmap_calls, 1);

	/* A driver that can address 64 bits says so with DUAL_ADDRESS_CYCLE. */
	EXPECT_STATUS(io->Attributes(io, EfiPciIoAttributeOperationEnable,
				     EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE, NULL),
		      EFI_SUCCESS);
	for (UINT32 op = EfiPciIoOperationBusMasterRead; op < EfiPciIoOperationMaximum; op++) {
		EXPECT_STATUS(io->Map(io, op, buffer, &bytes, &device, &mapping), EFI_SUCCESS);
		EXPECT_EQ(pci_sim.last.width, op + EfiPciOperationBusMasterRead64);
		EXPECT_STATUS(io->Unmap(io, mapping), EFI_SUCCESS);
	}
	/* Operations past the PciIo range (the root bridge's 64-bit ones) are not PciIo's. */
	unsigned maps = pci_sim.map_calls;
	EXPECT_STATUS(io->Map(io, EfiPciIoOperationMaximum, buffer, &bytes, &device, &mapping),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->Map(io, (EFI_PCI_IO_PROTOCOL_OPERATION)EfiPciOperationBusMasterRead64,
			      buffer, &bytes, &device, &mapping),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(pci_sim.map_calls, maps);
	/* The root bridge's verdict comes back unchanged. */
	EXPECT_STATUS(io->Unmap(io, buffer), EFI_INVALID_PARAMETER);
	pci_sim_remove();
}

TEST(pci_io_allocate_buffer_takes_only_cache_attributes)
{
	void *host = NULL;
	EFI_PCI_IO_PROTOCOL *io = start_nic();

	ASSERT(io != NULL);
	EXPECT_STATUS(io->AllocateBuffer(io, AllocateAnyPages, EfiBootServicesData, 2, &host,
					 EFI_PCI_IO_ATTRIBUTE_MEMORY_CACHED),
		      EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.count, 2);
	EXPECT_EQ(pci_sim.last.width, EfiBootServicesData);
	EXPECT_EQ(pci_sim.last.attributes, EFI_PCI_IO_ATTRIBUTE_MEMORY_CACHED);
	ASSERT(host != NULL);
	EXPECT(mem_is_allocated(host, 2 * 4096));
	EXPECT_STATUS(io->FreeBuffer(io, 2, host), EFI_SUCCESS);
	EXPECT(pci_sim.last.buffer == host);
	EXPECT(!mem_is_allocated(host, 4096));

	/* Anything but WRITE_COMBINE and CACHED is refused before the root bridge hears of it. */
	unsigned allocs = pci_sim.alloc_calls;
	EXPECT_STATUS(io->AllocateBuffer(io, AllocateAnyPages, EfiBootServicesData, 1, &host,
					 EFI_PCI_IO_ATTRIBUTE_BUS_MASTER),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(io->AllocateBuffer(io, AllocateAnyPages, EfiBootServicesData, 1, &host,
					 EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE |
					     EFI_PCI_IO_ATTRIBUTE_MEMORY_DISABLE),
		      EFI_UNSUPPORTED);
	EXPECT_EQ(pci_sim.alloc_calls, allocs);

	/* With DUAL_ADDRESS_CYCLE on, the root bridge may allocate above 4 GiB. */
	EXPECT_STATUS(io->Attributes(io, EfiPciIoAttributeOperationEnable,
				     EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE, NULL),
		      EFI_SUCCESS);
	EXPECT_STATUS(io->AllocateBuffer(io, AllocateAnyPages, EfiBootServicesData, 1, &host,
					 EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE),
		      EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.attributes,
		  EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE | EFI_PCI_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	EXPECT_STATUS(io->FreeBuffer(io, 1, host), EFI_SUCCESS);
	pci_sim_remove();
}

TEST(pci_io_flush_and_location)
{
	UINTN count, seg = 9, bus = 9, dev = 9, fn = 9;
	EFI_PCI_IO_PROTOCOL *io = start_nic();

	ASSERT(io != NULL);
	EXPECT_STATUS(io->Flush(io), EFI_SUCCESS);
	EXPECT_EQ(pci_sim.flush_calls, 1);
	EXPECT_STATUS(io->GetLocation(io, &seg, &bus, &dev, &fn), EFI_SUCCESS);
	EXPECT(seg == 0 && bus == 0 && dev == 2 && fn == 0);
	EXPECT_STATUS(io->GetLocation(io, NULL, &bus, &dev, &fn), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->GetLocation(io, &seg, NULL, &dev, &fn), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->GetLocation(io, &seg, &bus, &dev, NULL), EFI_INVALID_PARAMETER);
	/* A function behind the bridge reports its own bus. */
	EFI_PCI_IO_PROTOCOL *blk = pci_sim_child(1, 0, 0, &count, NULL);
	ASSERT(blk != NULL);
	EXPECT_STATUS(blk->GetLocation(blk, &seg, &bus, &dev, &fn), EFI_SUCCESS);
	EXPECT(bus == 1 && dev == 0 && fn == 0);
	pci_sim_remove();
}
