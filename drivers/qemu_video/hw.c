/* QEMU's display devices through PciIo: identity, BARs, the Bochs DISPI registers and the
 * VGA attribute controller. Facts from QEMU's docs/specs/standard-vga.rst, hw/display/vga.c
 * and hw/display/bochs-display.c:
 *  - BAR0 is the framebuffer; BAR2 (4 KiB) holds the VGA ports 0x3C0-0x3DF at 0x400 and the
 *    DISPI registers at 0x500 + (index << 1), 16 bits each. Without BAR2 (a VGA with
 *    mmio=off), the DISPI registers are an index/data pair at I/O ports 0x1CE/0x1D0 (0x1CF
 *    is data too on x86, but a 16-bit access there is unaligned, which root bridges refuse).
 *  - The VGA shows nothing while bit 5 of the attribute controller's index register
 *    (palette address source) is clear, which it is at reset; bochs-display has no VGA. */
#include "qemu_video.h"
#include <efi/pci.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/util.h>

#define FB_BAR 0
#define MMIO_BAR 2
#define MMIO_VGA_PORTS 0x400 /* port 0x3C0 */
#define MMIO_DISPI 0x500
#define MMIO_MIN_SIZE 0x520 /* through the last DISPI register */

#define DISPI_INDEX_PORT 0x1CE
#define DISPI_DATA_PORT 0x1D0
#define VGA_FIRST_PORT 0x3C0
#define VGA_ATTRIBUTE_PORT 0x3C0    /* index and data alternate on writes */
#define VGA_INPUT_STATUS_PORT 0x3DA /* reading it makes the next 0x3C0 write an index */
#define VGA_ATTRIBUTE_PAS 0x20

enum dispi_register {
	DISPI_ID = 0x00,
	DISPI_XRES = 0x01,
	DISPI_YRES = 0x02,
	DISPI_BPP = 0x03,
	DISPI_ENABLE = 0x04,
	DISPI_VIRT_WIDTH = 0x06,
	DISPI_X_OFFSET = 0x08,
	DISPI_Y_OFFSET = 0x09,
	DISPI_VRAM_64K = 0x0A,
};

#define DISPI_ID_FIRST 0xB0C0
#define DISPI_ID_LAST 0xB0CF
#define DISPI_ENABLED 0x01
#define DISPI_LFB_ENABLED 0x40
#define DISPI_NO_CLEAR 0x80 /* the driver clears the screen itself: bochs-display never does */

static UINT16 dispi_read(struct qemu_video *qv, enum dispi_register reg)
{
	EFI_PCI_IO_PROTOCOL *p = qv->pci.pci_io;
	UINT16 index = reg, value = 0xFFFF;

	if (qv->mmio) {
		p->Mem.Read(p, EfiPciIoWidthUint16, MMIO_BAR, MMIO_DISPI + (reg << 1), 1, &value);
	} else {
		p->Io.Write(p, EfiPciIoWidthUint16, EFI_PCI_IO_PASS_THROUGH_BAR, DISPI_INDEX_PORT,
			    1, &index);
		p->Io.Read(p, EfiPciIoWidthUint16, EFI_PCI_IO_PASS_THROUGH_BAR, DISPI_DATA_PORT, 1,
			   &value);
	}
	return value;
}

static void dispi_write(struct qemu_video *qv, enum dispi_register reg, UINT16 value)
{
	EFI_PCI_IO_PROTOCOL *p = qv->pci.pci_io;
	UINT16 index = reg;

	if (qv->mmio) {
		p->Mem.Write(p, EfiPciIoWidthUint16, MMIO_BAR, MMIO_DISPI + (reg << 1), 1, &value);
	} else {
		p->Io.Write(p, EfiPciIoWidthUint16, EFI_PCI_IO_PASS_THROUGH_BAR, DISPI_INDEX_PORT,
			    1, &index);
		p->Io.Write(p, EfiPciIoWidthUint16, EFI_PCI_IO_PASS_THROUGH_BAR, DISPI_DATA_PORT, 1,
			    &value);
	}
}

/* One VGA port, 8 bits wide, read (write false) or written. */
static void vga_port(struct qemu_video *qv, UINT16 port, UINT8 *value, bool write)
{
	EFI_PCI_IO_PROTOCOL *p = qv->pci.pci_io;
	EFI_PCI_IO_PROTOCOL_ACCESS *space = qv->mmio ? &p->Mem : &p->Io;
	UINT8 bar = qv->mmio ? MMIO_BAR : EFI_PCI_IO_PASS_THROUGH_BAR;
	UINT64 offset = qv->mmio ? MMIO_VGA_PORTS + (UINT64)(port - VGA_FIRST_PORT) : port;

	(write ? space->Write : space->Read)(p, EfiPciIoWidthUint8, bar, offset, 1, value);
}

/* Sets the palette address source bit so the VGA shows the picture. Every write here is
 * 0x20, so even when the input-status read cannot reset the index/data flip-flop (the
 * port is 0x3BA while the VGA is in monochrome mode) the index register ends up 0x20. */
static void vga_unblank(struct qemu_video *qv)
{
	UINT8 status, pas = VGA_ATTRIBUTE_PAS;

	if (!qv->mmio && !qv->model->vga)
		return;
	vga_port(qv, VGA_INPUT_STATUS_PORT, &status, false);
	vga_port(qv, VGA_ATTRIBUTE_PORT, &pas, true);
}

/* The devices QEMU draws through the Bochs DISPI interface (facts from QEMU's
 * hw/display/{vga-pci,qxl,virtio-vga}.c; OVMF's QemuVideoDxe lists the same ones):
 *  - QXL's VGA mode is a standard VGA on the legacy ports; its BAR2 is the QXL ROM, not the
 *    DISPI registers, so they are reached through the I/O ports only;
 *  - virtio-vga puts the standard VGA's MMIO registers at the start of its virtio BAR2. */
static const struct qv_model qv_models[] = {
    {PCI_VENDOR_ID_BOCHS, 0x1111, PCI_CLASS_DISPLAY_VGA, true, true, "standard VGA",
     u"QEMU Standard VGA"},
    {PCI_VENDOR_ID_BOCHS, 0x1111, PCI_CLASS_DISPLAY_OTHER, false, true, "bochs-display",
     u"QEMU Bochs Display"},
    {PCI_VENDOR_ID_REDHAT, 0x0100, PCI_CLASS_DISPLAY_VGA, true, false, "qxl-vga", u"QEMU QXL VGA"},
    {PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1050, PCI_CLASS_DISPLAY_VGA, true, true, "virtio-vga",
     u"QEMU Virtio VGA"},
};

const struct qv_model *qv_hw_identify(EFI_PCI_IO_PROTOCOL *pci_io)
{
	UINT32 id = 0, class_rev = 0;

	if (EFI_ERROR(
		pci_io->Pci.Read(pci_io, EfiPciIoWidthUint32, PCI_VENDOR_ID_OFFSET, 1, &id)) ||
	    EFI_ERROR(pci_io->Pci.Read(pci_io, EfiPciIoWidthUint32, PCI_REVISION_ID_OFFSET, 1,
				       &class_rev)))
		return NULL;
	if ((UINT8)(class_rev >> 24) != PCI_CLASS_DISPLAY)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(qv_models); i++) {
		const struct qv_model *m = &qv_models[i];

		if ((id & 0xFFFF) == m->vendor && id >> 16 == m->device &&
		    (UINT8)(class_rev >> 16) == m->sub_class)
			return m;
	}
	return NULL;
}

/* The memory range a BAR decodes, from GetBarAttributes' QWORD descriptor. */
static EFI_STATUS bar_range(EFI_PCI_IO_PROTOCOL *pci_io, UINT8 bar, UINT64 *base, UINT64 *size)
{
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *desc;
	void *resources = NULL;
	EFI_STATUS status = pci_io->GetBarAttributes(pci_io, bar, NULL, &resources);

	if (EFI_ERROR(status))
		return status;
	desc = resources;
	if (desc->Desc != ACPI_ADDRESS_SPACE_DESCRIPTOR ||
	    desc->ResType != ACPI_ADDRESS_SPACE_TYPE_MEM || desc->AddrLen == 0) {
		status = EFI_UNSUPPORTED;
	} else {
		*base = desc->AddrRangeMin;
		*size = desc->AddrLen;
	}
	pool_free(resources);
	return status;
}

EFI_STATUS qv_hw_probe(struct qemu_video *qv)
{
	UINT64 fb_size, mmio_base, mmio_size, vram;
	UINT16 id;

	if (EFI_ERROR(bar_range(qv->pci.pci_io, FB_BAR, &qv->fb_base, &fb_size))) {
		log_warn("qemu-video: BAR0 (framebuffer) is not assigned\n");
		return EFI_UNSUPPORTED;
	}
	qv->mmio = qv->model->mmio_bar &&
		   !EFI_ERROR(bar_range(qv->pci.pci_io, MMIO_BAR, &mmio_base, &mmio_size)) &&
		   mmio_size >= MMIO_MIN_SIZE;
	if (!qv->mmio && !qv->model->vga) {
		log_warn("qemu-video: bochs-display without its register BAR\n");
		return EFI_UNSUPPORTED;
	}
	id = dispi_read(qv, DISPI_ID);
	if (id < DISPI_ID_FIRST || id > DISPI_ID_LAST) {
		log_warn("qemu-video: no Bochs DISPI interface (ID %#x)\n", id);
		return EFI_UNSUPPORTED;
	}
	/* The VRAM register may be absent on old interfaces (reads 0): trust the BAR then. */
	vram = (UINT64)dispi_read(qv, DISPI_VRAM_64K) * 0x10000;
	qv->vram_size = vram && vram < fb_size ? vram : fb_size;
	log_info("qemu-video: %s, framebuffer %#llx, %llu KiB, DISPI %#x through %s\n",
		 qv->model->kind, (unsigned long long)qv->fb_base,
		 (unsigned long long)(qv->vram_size >> 10), id, qv->mmio ? "MMIO" : "I/O ports");
	return EFI_SUCCESS;
}

EFI_STATUS qv_hw_set_mode(struct qemu_video *qv, UINT32 width, UINT32 height)
{
	/* Geometry is written while the engine is off; QEMU's VGA recomputes the line length
	 * and offsets when it is turned on, bochs-display uses the registers as written. */
	dispi_write(qv, DISPI_ENABLE, 0);
	dispi_write(qv, DISPI_XRES, (UINT16)width);
	dispi_write(qv, DISPI_YRES, (UINT16)height);
	dispi_write(qv, DISPI_BPP, 32);
	dispi_write(qv, DISPI_VIRT_WIDTH, (UINT16)width);
	dispi_write(qv, DISPI_X_OFFSET, 0);
	dispi_write(qv, DISPI_Y_OFFSET, 0);
	dispi_write(qv, DISPI_ENABLE, DISPI_ENABLED | DISPI_LFB_ENABLED | DISPI_NO_CLEAR);
	vga_unblank(qv);
	if (dispi_read(qv, DISPI_XRES) != width || dispi_read(qv, DISPI_YRES) != height ||
	    dispi_read(qv, DISPI_BPP) != 32 || dispi_read(qv, DISPI_VIRT_WIDTH) != width) {
		log_warn("qemu-video: the device refused %ux%u\n", width, height);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}
