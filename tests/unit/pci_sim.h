/* A simulated PCI machine behind a fake EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL, for the tests of
 * the PCI bus driver and of the PciIo it publishes: configuration space per function (BARs
 * keep only the bits they decode), memory and I/O spaces as bytes, and the root bridge's
 * Poll, CopyMem and DMA members, each recording what it was asked. Functions behind a
 * bridge appear once the bridge has a secondary bus number. */
#ifndef EMBER_TEST_PCI_SIM_H
#define EMBER_TEST_PCI_SIM_H

#include <stdbool.h>
#include <efi/pci.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/pci_root_bridge_io.h>

#define PCI_SIM_MAX_FUNCS 12

/* A function: where it sits (behind: 0 = root bus, else index+1 of its bridge) and its
 * configuration space; BAR sizes decide which bits stick. */
struct pci_sim_func {
	UINT8 behind, dev, fn;
	UINT32 bar_size[6]; /* 0: not implemented; 64-bit BARs list the size on the low half */
	bool io16;	    /* its I/O BARs decode 16 address bits (the upper half reads 0) */
	UINT32 rom_size;    /* the expansion ROM BAR's size (0: none) */
	const UINT8 *rom;   /* rom_size bytes, readable while the ROM BAR and memory decode */
	UINT8 cfg[4096];
};

/* One call to a root bridge member other than Pci.Read/Write. */
struct pci_sim_call {
	UINT32 width;		  /* or the operation (Map), or the memory type (AllocateBuffer) */
	UINT64 address, address2; /* CopyMem: destination, source */
	UINTN count;		  /* Count, Pages */
	UINT64 mask, value, delay, attributes;
	void *buffer;
};

/* What the fake root bridge did, and the faults a test asks of it. */
struct pci_sim_state {
	unsigned config_writes;
	unsigned mem_calls, io_calls, poll_calls, copy_calls, map_calls, unmap_calls;
	unsigned alloc_calls, free_calls, flush_calls;
	struct pci_sim_call last;	 /* the latest call counted above */
	EFI_STATUS configuration_status; /* != EFI_SUCCESS: Configuration() fails */
	bool no_ecam;			 /* refuses configuration registers >= 0x100 */
	/* A busy register: after `busy_reads` reads of busy_address it holds busy_value. */
	bool busy_io;
	UINT64 busy_address;
	UINT8 busy_value;
	unsigned busy_reads;
};

extern struct pci_sim_func pci_sim_funcs[PCI_SIM_MAX_FUNCS];
extern int pci_sim_nfuncs;
extern struct pci_sim_state pci_sim;
extern EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL pci_sim_root;
extern EFI_HANDLE pci_sim_root_handle;

/* Empties the machine: no functions, no apertures, memory unwritten, counters zero. */
void pci_sim_reset(void);
struct pci_sim_func *pci_sim_add_func(UINT8 behind, UINT8 dev, UINT8 fn, UINT32 id,
				      UINT32 class_code, UINT8 header);
void pci_sim_set_bar(struct pci_sim_func *f, int i, UINT32 size, UINT32 type_bits);
void pci_sim_aperture(int i, UINT8 type, UINT8 granularity, UINT64 base, UINT64 len);
/* Sets aperture i's AddrTranslationOffset (device address = host address + offset). */
void pci_sim_aperture_translation(int i, UINT64 offset);
/* Host bridge 00:00.0; NIC 00:02.0 (I/O BAR0 0x20, 32-bit BAR1 4 KiB, 64-bit prefetchable
 * BAR4 16 KiB, interrupt pin A); a Red Hat bridge 00:03.0 (BAR0 4 KiB, reserving three
 * buses) with a disk 01:00.0 behind it; multi-function 00:04.0 and 00:04.2. Apertures: I/O
 * 0x6000-0xffff, 32-bit memory at 0xc0000000, 64-bit at 0x800000000, buses 0-255. */
void pci_sim_standard_machine(void);

/* Installs the built-in drivers and a root bridge handle for the machine built so far
 * (removing an earlier one); pci_sim_remove disconnects and removes it. */
void pci_sim_install(void);
void pci_sim_remove(void);
/* pci_sim_install, then connects the PCI bus driver; false if that failed. */
bool pci_sim_start(void);

/* The PciIo of the child at bus:dev.fn (NULL if none); count receives the number of PciIo
 * handles, path (optional) the child's device path. */
EFI_PCI_IO_PROTOCOL *pci_sim_child(UINTN bus, UINTN dev, UINTN fn, UINTN *count,
				   EFI_DEVICE_PATH_PROTOCOL **path);
/* A BAR's base address from GetBarAttributes (0 if it has none), with its length and
 * granularity. */
UINT64 pci_sim_bar(EFI_PCI_IO_PROTOCOL *io, UINT8 bar, UINT64 *len, UINT64 *granularity);

/* Direct access to the simulated memory or I/O space, bypassing the root bridge. */
void pci_sim_poke(bool io, UINT64 address, const void *data, UINTN size);
void pci_sim_peek(bool io, UINT64 address, void *data, UINTN size);

#endif
