/* A QEMU display device in memory for the qemu_video driver tests: a handle carrying
 * EFI_PCI_IO_PROTOCOL and PciRoot(0)/Pci(2,0), whose BAR0 is a host buffer and whose
 * BAR2 (or, without it, I/O ports 0x1CE/0x1D0 and 0x3C0/0x3DA) emulates the Bochs DISPI
 * registers and the VGA attribute controller's index the way QEMU does. */
#ifndef EMBER_TEST_FAKE_DISPLAY_H
#define EMBER_TEST_FAKE_DISPLAY_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/pci_io.h>

struct fake_display_config {
	UINT16 vendor, device;
	UINT8 sub_class; /* 0x00 VGA, 0x80 other (bochs-display) */
	UINT64 vram;	 /* BAR0 size and the DISPI VRAM register */
	bool no_mmio;	 /* no BAR2 */
	UINT16 max_yres; /* when not 0, YRES writes are clamped to it (a refusing device) */
};

#pragma pack(push, 1)
struct fake_display_path {
	ACPI_HID_DEVICE_PATH root;
	PCI_DEVICE_PATH pci;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

struct fake_display {
	EFI_PCI_IO_PROTOCOL pci_io;
	struct fake_display_config config;
	struct fake_display_path path;
	EFI_HANDLE handle;
	UINT8 *vram;	    /* BAR0's memory */
	UINT16 dispi[16];   /* DISPI registers by index */
	UINT16 dispi_index; /* the I/O index port */
	UINT8 ar_index;	    /* VGA attribute controller index register */
	bool ar_data_next;  /* the attribute controller's flip-flop */
	UINT64 attributes;  /* PCI attributes now enabled */
	UINTN dispi_writes;
	UINTN mmio_accesses; /* reads and writes of BAR2 */
};

enum {
	FAKE_DISPI_ID = 0,
	FAKE_DISPI_XRES = 1,
	FAKE_DISPI_YRES = 2,
	FAKE_DISPI_BPP = 3,
	FAKE_DISPI_ENABLE = 4,
	FAKE_DISPI_VIRT_WIDTH = 6,
	FAKE_DISPI_VRAM_64K = 10,
};

/* Installs a device; NULL on failure. */
struct fake_display *fake_display_create(const struct fake_display_config *config);
/* Disconnects every driver from it and removes it. */
void fake_display_destroy(struct fake_display *d);

#endif
