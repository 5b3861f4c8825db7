/* The root bridge's private state, shared by its files (pci_root_bridge*.c). */
#ifndef PCI_ROOT_BRIDGE_PRIVATE_H
#define PCI_ROOT_BRIDGE_PRIVATE_H

#include <ember/drivers/pci_root_bridge.h>
#include <ember/lib/list.h>
#include <efi/protocol/pci_root_bridge_io.h>

/* Configuration(): I/O, 32-bit and 64-bit memory, bus numbers, then the end tag. */
#define RB_DESCRIPTORS 4

struct root_bridge {
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL io;
	EFI_HANDLE handle;
	struct pci_root_bridge_hw hw;
	UINT64 attributes;
	struct list mappings; /* live Map() results (struct rb_mapping) */
	struct __attribute__((packed)) {
		EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR desc[RB_DESCRIPTORS];
		EFI_ACPI_END_TAG_DESCRIPTOR end;
	} config;
};

static inline struct root_bridge *rb_from(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *io)
{
	return container_of(io, struct root_bridge, io);
}

/* pci_root_bridge_io.c: PollMem, PollIo, Mem, Io, Pci, CopyMem. */
void rb_io_fill(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *io);
/* pci_root_bridge_dma.c: Map, Unmap, AllocateBuffer, FreeBuffer, Flush. */
void rb_dma_fill(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *io);

#endif
