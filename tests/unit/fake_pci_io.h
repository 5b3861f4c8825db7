/* A PCI function in memory for the tests of PCI device drivers: a handle carrying
 * EFI_PCI_IO_PROTOCOL and PciRoot(0x0)/Pci(dev,fn), with a configuration space the test can
 * edit, BARs whose registers a device model serves through callbacks, attributes that gate
 * decoding and bus mastering as the command register does, and DMA the way a root bridge
 * does it (buffers above 4 GiB bounce below it unless DUAL_ADDRESS_CYCLE is on). It keeps
 * the books a test checks after Stop: enabled attributes, live buffers and mappings, and
 * every access a real device would not have survived (a fault count, never an abort).
 * Device models reach host memory only through fake_pci_io_dma, which accepts nothing
 * outside a live mapping. Faults to inject: the Nth Attributes, AllocateBuffer or Map call
 * fails, mappings shorter than asked, device addresses away from host addresses. */
#ifndef EMBER_TEST_FAKE_PCI_IO_H
#define EMBER_TEST_FAKE_PCI_IO_H

#include <stdbool.h>
#include <efi/pci.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/pci_io.h>
#include <ember/lib/list.h>

#define FAKE_PCI_BARS 6

/* What the device is and where it sits (bus 0 of segment 0). */
struct fake_pci_io_config {
	UINT16 vendor, device;
	UINT32 class_code; /* base class << 16 | sub-class << 8 | programming interface */
	UINT8 dev, fn;
	UINT64 supports;   /* the Supported attributes */
	UINT64 attributes; /* enabled when the function appears */
};

/* A BAR's registers: the device model answers each access of width bytes (1, 2, 4 or 8). */
struct fake_pci_bar {
	UINT64 size; /* 0: no such BAR */
	bool io;     /* I/O space (Io.Read/Write) rather than memory (Mem.Read/Write) */
	UINT64 (*read)(void *device, UINT64 offset, UINT32 width);
	void (*write)(void *device, UINT64 offset, UINT32 width, UINT64 value);
	void *device;
};

#pragma pack(push, 1)
struct fake_pci_io_path {
	ACPI_HID_DEVICE_PATH root;
	PCI_DEVICE_PATH pci;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

/* Faults to inject. A call count "at" N makes the Nth call (counting from 1 since the
 * function appeared, see the counters below) fail; 0 never. */
struct fake_pci_io_faults {
	UINTN attributes_fail_at; /* that Attributes call returns EFI_DEVICE_ERROR */
	UINTN alloc_fail_at;	  /* that AllocateBuffer returns EFI_OUT_OF_RESOURCES */
	UINTN map_fail_at;	  /* that Map returns EFI_OUT_OF_RESOURCES */
	UINTN map_limit;	  /* BusMasterRead/Write map at most this many bytes (0: all) */
	UINTN common_map_limit;	  /* the same for BusMasterCommonBuffer */
	UINT64 dma_offset;	  /* device address = host (or bounce) address + this */
	bool no_bounce;		  /* map buffers above 4 GiB as they are, even without DAC */
};

/* One live Map; a device sees [device, device + bytes), backed by host or bounce. */
struct fake_pci_map {
	struct list link;
	EFI_PCI_IO_PROTOCOL_OPERATION op;
	UINT8 *host;
	UINT8 *bounce; /* a copy below 4 GiB, or NULL when the device uses host itself */
	UINT64 device;
	UINTN bytes;
};

struct fake_pci_io {
	EFI_PCI_IO_PROTOCOL pci_io;
	struct fake_pci_io_path path;
	EFI_HANDLE handle;
	UINT8 config[PCI_CONFIG_SPACE_SIZE]; /* the test may edit it, the class code too */
	struct fake_pci_bar bars[FAKE_PCI_BARS];
	UINT64 supports, attributes;
	struct fake_pci_io_faults faults;
	struct list maps;    /* struct fake_pci_map */
	struct list buffers; /* AllocateBuffer's, not yet freed */
	/* Counters: calls made, and what is still held. */
	UINTN attributes_calls, alloc_calls, map_calls, unmap_calls;
	UINTN live_buffers, live_maps;
	/* Accesses a real system would not survive: BAR access with decoding off, DMA with bus
	 * mastering off or outside a mapping, unmapping twice, freeing what was not allocated,
	 * the wrong width or range. Each is counted and the last one described. */
	UINTN faults_seen;
	char last_fault[160];
};

/* Installs a function; NULL on failure. */
struct fake_pci_io *fake_pci_io_create(const struct fake_pci_io_config *config);

/* Gives BAR index registers served by bar (copied), and fills its BAR register in the
 * configuration space (I/O BARs with bit 0 set). */
void fake_pci_io_set_bar(struct fake_pci_io *f, UINT8 index, const struct fake_pci_bar *bar);

/* Disconnects every driver from the function, removes it, and frees what the drivers left
 * allocated or mapped (a test checks live_buffers and live_maps before, if it cares). */
void fake_pci_io_destroy(struct fake_pci_io *f);

/* A device model's DMA: the host memory behind device address addr for bytes bytes, or
 * NULL (and a fault) when bus mastering is off or no live mapping covers the range in the
 * direction asked (device_writes: the device stores into memory). */
void *fake_pci_io_dma(struct fake_pci_io *f, UINT64 addr, UINTN bytes, bool device_writes);

/* Records a fault (for device models too): what happened, in a few words. */
void fake_pci_io_fault(struct fake_pci_io *f, const char *what);

/* True when nobody holds the function's PciIo BY_DRIVER (no driver manages it). */
bool fake_pci_io_unclaimed(struct fake_pci_io *f);

#endif
