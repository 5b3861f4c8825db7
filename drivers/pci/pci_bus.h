/* The PCI bus driver's private interfaces (drivers/pci/). The driver binds to a handle with
 * EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL, numbers the buses behind bridges, sizes and assigns every
 * BAR and bridge window inside the root bridge's apertures, enables decoding, and creates a
 * child handle with EFI_PCI_IO_PROTOCOL and a device path for each function. */
#ifndef PCI_BUS_H
#define PCI_BUS_H

#include <ember/lib/list.h>
#include <ember/lib/util.h>
#include <efi/pci.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/driver_override.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/pci_root_bridge_io.h>
#include "pci_alloc.h"

#define PCI_FUNCTION_SIGNATURE SIGNATURE_32('p', 'c', 'i', 'f')

/* One Base Address Register, as sizing found it. */
struct pci_bar {
	struct pci_res_req req; /* size, alignment and the assigned base */
	UINT8 offset;		/* configuration register; 0: not implemented */
	bool is_io, is_64, prefetchable;
};

/* One PCI function: during Start a node of the bus tree, afterwards the private data of its
 * child handle (which publishes io). */
struct pci_function {
	UINT32 signature;
	EFI_PCI_IO_PROTOCOL io;
	EFI_HANDLE handle;
	EFI_DEVICE_PATH_PROTOCOL *device_path;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root;
	UINT32 segment;
	UINT8 bus, dev, fn;
	UINT8 header_type; /* without the multi-function bit */
	UINT16 vendor_id, device_id;
	UINT8 class_code[3]; /* programming interface, sub-class, base class */
	struct pci_bar bars[PCI_MAX_BAR];
	struct pci_bar rom; /* the expansion ROM BAR (offset 0: none) */
	/* The drivers started from the ROM, published through override on the handle. */
	EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL override;
	EFI_HANDLE *rom_drivers;
	UINTN rom_driver_count;
	UINT64 supports;   /* EFI_PCI_IO_ATTRIBUTE_* this function can have */
	UINT64 attributes; /* those that are on (IO/MEMORY/BUS_MASTER mirror the command) */

	/* Enumeration only (Start): */
	struct list link;	     /* in the scan's list, discovery order */
	struct pci_function *parent; /* the bridge above it; NULL on the root bus */
	bool is_bridge;
	bool inner_mem64; /* 64-bit prefetchable BARs behind it may go above 4 GiB */
	UINT8 secondary, subordinate;
	struct pci_res_req windows[PCI_RES_TYPES];
	struct pci_bus_res inner; /* requests on its secondary bus */
	UINT32 bus_reserve;	  /* Red Hat hint: buses to reserve below it, 0 = none */
};

static inline struct pci_function *pci_function_from(EFI_PCI_IO_PROTOCOL *io)
{
	return container_of(io, struct pci_function, io);
}

/* A Start in progress: what the scan found and where it may be placed. */
struct pci_scan {
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root;
	struct list functions;
	struct pci_bus_res root_bus;
	struct pci_range apertures[PCI_RES_TYPES];
	UINT8 bus_base, bus_limit; /* the root bridge's bus numbers */
	UINT8 next_bus;
	UINT32 order;
};

/* pci_cfg.c: configuration space through the root bridge. */
UINT8 pci_cfg_read8(const struct pci_function *f, UINT16 reg);
UINT16 pci_cfg_read16(const struct pci_function *f, UINT16 reg);
UINT32 pci_cfg_read32(const struct pci_function *f, UINT16 reg);
void pci_cfg_write8(const struct pci_function *f, UINT16 reg, UINT8 value);
void pci_cfg_write16(const struct pci_function *f, UINT16 reg, UINT16 value);
void pci_cfg_write32(const struct pci_function *f, UINT16 reg, UINT32 value);
/* Offset of the first capability with this ID in the standard list; 0 if none. */
UINT8 pci_cfg_find_capability(const struct pci_function *f, UINT8 id, UINT8 start);

/* pci_scan.c: reads the apertures, then walks every bus, numbering bridges and sizing BARs
 * (decoding off). Fills scan->functions. */
EFI_STATUS pci_scan_init(struct pci_scan *scan, EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root);
void pci_scan_buses(struct pci_scan *scan);
/* Frees every function still on the list, and the request arrays. */
void pci_scan_free(struct pci_scan *scan);

/* pci_assign.c: places every BAR and window and programs them; enables decoding. */
EFI_STATUS pci_assign_resources(struct pci_scan *scan);

/* pci_child.c: the child handle of one function (PciIo + device path), or its removal. */
EFI_STATUS pci_child_create(EFI_HANDLE driver, EFI_HANDLE controller,
			    EFI_DEVICE_PATH_PROTOCOL *parent_path, struct pci_function *f);
EFI_STATUS pci_child_destroy(EFI_HANDLE driver, EFI_HANDLE controller, EFI_HANDLE child);

/* pci_rom.c: sizing of the expansion ROM BAR (scan), the copy of the ROM into memory
 * (PciIo.RomImage/RomSize), and the EFI drivers in it, loaded, started and published
 * through EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL on the child's handle. */
void pci_rom_size(struct pci_function *f);
void pci_rom_program(struct pci_function *f);
void pci_rom_copy(struct pci_function *f);
void pci_rom_start_drivers(EFI_HANDLE driver_image, struct pci_function *f);
void pci_rom_release(struct pci_function *f);

/* pci_io.c, pci_io_dma.c, pci_io_attr.c: fill in the protocol members. */
void pci_io_fill_access(EFI_PCI_IO_PROTOCOL *io);
void pci_io_fill_dma(EFI_PCI_IO_PROTOCOL *io);
void pci_io_fill_attributes(EFI_PCI_IO_PROTOCOL *io);
/* pci_io_attr.c: the attributes a function supports and has after enumeration. */
void pci_io_init_attributes(struct pci_function *f);

#endif
