/* A PCI function in memory for the tests of PCI device drivers (AHCI, virtio ...): a handle
 * carrying EFI_PCI_IO_PROTOCOL and PciRoot(0x0)/Pci(dev,fn), with
 *  - a configuration space the test and the device model fill (fake_pci_io_config_set),
 *    read-only to drivers where the hardware's is, or in all of it (config_read_only);
 *  - BARs whose registers a device model serves through callbacks, answering only while
 *    their decoding (the IO or MEMORY attribute) is on;
 *  - attributes that gate decoding and bus mastering as the command register does;
 *  - DMA the way a root bridge does it (UEFI 2.10, 14.4): AllocateBuffer pages, Map and
 *    Unmap recorded, buffers above 4 GiB bounced below it unless DUAL_ADDRESS_CYCLE is on.
 * Device models reach host memory only through fake_pci_io_dma, which accepts nothing
 * outside a live mapping of the right direction. Every driver mistake a real system would
 * not survive (a BAR access with decoding off or out of range, DMA outside a mapping or
 * with bus mastering off, a CommonBuffer map of memory AllocateBuffer did not give,
 * unmapping twice, freeing what is still mapped ...) is counted in errors, the last one
 * described, never an abort: a test ends by checking that errors is 0. Faults to inject
 * are in fake_pci_io_faults. */
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
	UINT64 supports;       /* the Supported attributes */
	UINT64 attributes;     /* enabled when the function appears */
	bool config_read_only; /* any configuration write by a driver is an error */
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
	UINTN attributes_fail_at;   /* that Attributes call returns EFI_DEVICE_ERROR */
	UINT32 attributes_fail_ops; /* bit n: every Attributes call of operation n does too */
	UINTN alloc_fail_at;	    /* that AllocateBuffer returns EFI_OUT_OF_RESOURCES */
	UINTN map_fail_at;	    /* that Map returns EFI_OUT_OF_RESOURCES */
	UINTN map_limit;	    /* BusMasterRead/Write map at most this many bytes (0: all) */
	UINTN common_map_limit;	    /* the same for BusMasterCommonBuffer */
	bool common_map_short;	    /* CommonBuffer maps cover one byte less than asked */
	UINT64 dma_offset;	    /* device address = host (or bounce) address + this */
	bool bounce_all;	    /* BusMasterRead/Write maps always go through a bounce buffer */
	bool no_bounce;		    /* map buffers above 4 GiB as they are, even without DAC */
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
	bool config_read_only;		     /* see fake_pci_io_config */
	struct fake_pci_bar bars[FAKE_PCI_BARS];
	/* I/O ports a device decodes at fixed addresses (legacy IDE, VGA ...), reached with
	 * EFI_PCI_IO_PASS_THROUGH_BAR and the absolute port as the offset; size 0: none. */
	struct fake_pci_bar legacy_io;
	UINT64 supports, attributes;
	struct fake_pci_io_faults faults;
	struct list maps;    /* struct fake_pci_map */
	struct list buffers; /* AllocateBuffer's, not yet freed */
	/* Counters: calls made, and what is still held. */
	UINTN attributes_calls, alloc_calls, map_calls, unmap_calls;
	UINTN live_buffers, live_maps;
	/* Driver mistakes seen (by the PciIo or by a device model), and the last one. */
	UINTN errors;
	char last_error[160];
};

/* Installs a function; NULL on failure. */
struct fake_pci_io *fake_pci_io_create(const struct fake_pci_io_config *config);

/* Gives BAR index registers served by bar (copied), and fills its BAR register in the
 * configuration space (I/O BARs with bit 0 set). */
void fake_pci_io_set_bar(struct fake_pci_io *f, UINT8 index, const struct fake_pci_bar *bar);

/* Writes size bytes of value (little-endian) into configuration space as the device
 * itself would: read-only registers too, no attribute follows. */
void fake_pci_io_config_set(struct fake_pci_io *f, UINT32 offset, UINT32 size, UINT64 value);

/* Disconnects every driver from the function, removes it, and frees what the drivers left
 * allocated or mapped (a test checks live_buffers and live_maps before, if it cares). */
void fake_pci_io_destroy(struct fake_pci_io *f);

/* A device model's DMA: the host memory behind device address addr for bytes bytes, or
 * NULL (and an error) when bus mastering is off or no live mapping covers the range in
 * the direction asked (device_writes: the device stores into memory; BusMasterWrite or
 * CommonBuffer; else BusMasterRead or CommonBuffer). */
void *fake_pci_io_dma(struct fake_pci_io *f, UINT64 addr, UINTN bytes, bool device_writes);

/* Records a driver mistake (for device models too): what happened, printf-style. */
void fake_pci_io_error(struct fake_pci_io *f, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* True when nobody holds the function's PciIo BY_DRIVER or EXCLUSIVE (another driver could
 * take it). */
bool fake_pci_io_unclaimed(struct fake_pci_io *f);

/* For fake_pci_io.c: puts the DMA functions (fake_pci_io_dma.c) into the protocol, and
 * frees the buffers and mappings drivers left behind. */
void fake_pci_io_dma_init(struct fake_pci_io *f);
void fake_pci_io_dma_release(struct fake_pci_io *f);

#endif
