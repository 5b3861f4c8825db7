/* The QEMU video driver: Graphics Output on QEMU's standard VGA (1234:1111, class 0x0300)
 * and bochs-display (1234:1111, class 0x0380), and the VGA-compatible interfaces of qxl-vga
 * (1b36:0100) and virtio-vga (1af4:1050, class 0x0300), all programmed through the Bochs
 * DISPI registers. One device per PCI controller; its GOP lives on a child handle whose device
 * path is the controller's followed by AcpiAdr(display output). */
#ifndef DRIVERS_QEMU_VIDEO_H
#define DRIVERS_QEMU_VIDEO_H

#include <efi/protocol/device_path.h>
#include <efi/protocol/pci_io.h>
#include <ember/drivers/gop_front.h>
#include <ember/drivers/pci_driver.h>

#define QV_MAX_MODES 24

/* A resolution; every mode is 32 bits per pixel with rows of exactly width pixels. */
struct qv_size {
	UINT32 width, height;
};

/* A device the driver knows, by PCI IDs and subclass. */
struct qv_model {
	UINT16 vendor, device;
	UINT8 sub_class;
	bool vga;	    /* VGA ports (attribute controller; DISPI on I/O without MMIO) */
	bool mmio_bar;	    /* BAR2 may hold the DISPI and VGA registers */
	const char *kind;   /* for the log */
	const CHAR16 *name; /* ComponentName2's controller name */
};

struct qemu_video {
	struct pci_driver_dev pci;    /* the PCI function, PciIo opened BY_DRIVER */
	EFI_HANDLE child;	      /* the GOP handle, NULL when none was created */
	const struct qv_model *model; /* which device it is */
	bool mmio;		      /* DISPI and VGA ports through BAR2, else I/O ports */
	EFI_PHYSICAL_ADDRESS fb_base; /* BAR0 */
	UINT64 vram_size;	      /* usable bytes from fb_base */
	UINT32 mode_count;
	struct qv_size modes[QV_MAX_MODES];
	struct gop_front front; /* the GOP, on the child */
	EFI_DEVICE_PATH_PROTOCOL *child_path;
};

/* ---- hw.c: the device ---- */

/* Reads the PCI IDs and class: the model of a display this driver handles, else NULL. */
const struct qv_model *qv_hw_identify(EFI_PCI_IO_PROTOCOL *pci_io);
/* Finds BAR0 and the register interface, checks the DISPI ID and reads the VRAM size. */
EFI_STATUS qv_hw_probe(struct qemu_video *qv);
/* Programs a width x height x 32 bpp linear mode and shows it; EFI_DEVICE_ERROR if the
 * device does not take it. */
EFI_STATUS qv_hw_set_mode(struct qemu_video *qv, UINT32 width, UINT32 height);

/* ---- modes.c ---- */

/* Fills qv->modes with the resolutions that fit in the VRAM; mode 0 is 1024x768 when it
 * fits. Returns the count (0 when nothing fits). */
UINT32 qv_modes_build(struct qemu_video *qv);
/* The mode information GOP reports for mode n (n < mode_count). */
void qv_mode_info(const struct qemu_video *qv, UINT32 n,
		  EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info);

/* ---- gop.c ---- */

/* Sets up the GOP front end over qv's modes (no mode current yet). */
void qv_gop_init(struct qemu_video *qv);

/* ---- child.c ---- */

/* Creates the child handle with GOP and its device path, opened BY_CHILD_CONTROLLER. */
EFI_STATUS qv_child_create(struct qemu_video *qv, EFI_HANDLE driver);
/* Removes the child handle; fails (leaving it in place) if the GOP is still in use. */
EFI_STATUS qv_child_destroy(struct qemu_video *qv, EFI_HANDLE driver);

#endif
