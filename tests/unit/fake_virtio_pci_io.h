/* A PCI function in memory for the virtio driver tests: a handle carrying
 * EFI_PCI_IO_PROTOCOL and PciRoot(0)/Pci(n,0), with
 *  - 256 bytes of configuration space that the device model fills;
 *  - BARs served by callbacks, decoded only while their attribute (IO or MEMORY) is on;
 *  - attributes with state (what is enabled now, what the function supports);
 *  - DMA as UEFI 2.10, 14.4 describes it: AllocateBuffer pages from the core, Map/Unmap
 *    recorded, optionally through bounce buffers and at device addresses other than the
 *    host's, so that a device model can check every address it is handed and a test can
 *    check that nothing is left mapped or allocated;
 *  - faults to inject into each of those.
 * Misuse (an undecoded or out-of-range BAR access, an unknown mapping, a CommonBuffer that
 * AllocateBuffer did not give ...) is counted in errors, with the last message kept. */
#ifndef EMBER_TEST_FAKE_VIRTIO_PCI_IO_H
#define EMBER_TEST_FAKE_VIRTIO_PCI_IO_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/pci_io.h>

#define FAKE_VPCI_MAX_MAPS 64
#define FAKE_VPCI_MAX_BUFFERS 16

/* A BAR's registers: read and write size (1, 2, 4 or 8) bytes at offset. */
struct fake_vpci_bar {
	bool io;     /* an I/O BAR, else memory */
	UINT64 size; /* 0: the BAR does not exist */
	UINT64 (*read)(void *context, UINT64 offset, UINT32 size);
	void (*write)(void *context, UINT64 offset, UINT32 size, UINT64 value);
	void *context;
};

struct fake_vpci_map {
	bool used;
	EFI_PCI_IO_PROTOCOL_OPERATION op;
	UINT8 *host;   /* the caller's buffer */
	UINT8 *device; /* what the device reaches: host, or a bounce buffer */
	UINTN bytes;
	UINTN bounce_pages; /* 0 when not bounced */
	UINT64 dev_addr;
};

struct fake_vpci_buffer {
	UINT8 *host; /* NULL: free slot */
	UINTN pages;
};

struct fake_vpci_faults {
	UINT32 attributes;   /* bit n: Attributes operation n fails (EFI_DEVICE_ERROR) */
	UINTN alloc_fail_at; /* the n-th AllocateBuffer call fails (0: never) */
	UINTN map_fail_at;   /* the n-th Map call fails */
	UINTN map_limit;     /* BusMasterRead/Write maps cover at most this many bytes */
	bool short_common;   /* CommonBuffer maps cover one byte less than asked */
};

#pragma pack(push, 1)
struct fake_vpci_path {
	ACPI_HID_DEVICE_PATH root;
	PCI_DEVICE_PATH pci;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

struct fake_vpci {
	EFI_PCI_IO_PROTOCOL pci_io;
	EFI_HANDLE handle;
	struct fake_vpci_path path;
	UINT8 config[256];
	struct fake_vpci_bar bars[6];
	UINT64 attributes; /* enabled now */
	UINT64 supported;
	struct fake_vpci_faults faults;
	UINT64 dma_offset; /* device address = host address + dma_offset */
	bool bounce;	   /* BusMasterRead/Write maps go through buffers of their own */
	struct fake_vpci_map maps[FAKE_VPCI_MAX_MAPS];
	struct fake_vpci_buffer buffers[FAKE_VPCI_MAX_BUFFERS];
	UINTN alloc_calls, map_calls, unmap_calls, free_calls;
	UINTN errors;
	char last_error[160];
};

/* Sets up the protocol over an empty function (config space zero, no BARs, attributes
 * IO enabled and IO/MEMORY/BUS_MASTER/DUAL_ADDRESS_CYCLE supported); not installed yet. */
void fake_vpci_init(struct fake_vpci *p);

/* Installs PciIo and a device path on a new handle. */
EFI_STATUS fake_vpci_install(struct fake_vpci *p);

/* Disconnects every driver, removes the handle and frees what drivers left allocated. */
void fake_vpci_uninstall(struct fake_vpci *p);

/* Configuration space writes of the device model (little-endian). */
void fake_vpci_config_set(struct fake_vpci *p, UINT32 offset, UINT32 size, UINT64 value);

/* The memory the device reaches at dev_addr for bytes bytes, or NULL (an error is
 * recorded) when no live mapping covers it for that direction: device_writes needs
 * BusMasterWrite or CommonBuffer, reading needs BusMasterRead or CommonBuffer. */
void *fake_vpci_dma(struct fake_vpci *p, UINT64 dev_addr, UINT64 bytes, bool device_writes);

/* Mappings and buffers still live. */
UINTN fake_vpci_live_maps(const struct fake_vpci *p);
UINTN fake_vpci_live_buffers(const struct fake_vpci *p);

/* Records misuse seen by the PciIo or the device model. */
void fake_vpci_error(struct fake_vpci *p, const char *what, UINT64 value);

#endif
