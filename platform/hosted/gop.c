/* EFI_GRAPHICS_OUTPUT_PROTOCOL (UEFI 2.10, 12.9) over a framebuffer in host memory.
 * The framebuffer is an mmap of its own, outside the core's RAM, standing for a graphics
 * card's memory: it is sized for the largest mode and each mode shows its top part. */
#include <sys/mman.h>
#include <string.h>

#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/fb_blt.h>
#include <ember/lib/str.h>
#include "gop.h"
#include "hosted.h"

#define GOP_SIGNATURE SIGNATURE_32('h', 'g', 'o', 'p')
#define GOP_MAX_SIDE 8192
#define PIXEL_SIZE sizeof(EFI_GRAPHICS_OUTPUT_BLT_PIXEL)

/* ACPI _ADR of a display output (ACPI 6.5, appendix B.4.2 "_DOD"): bit 31 says the
 * scheme is ACPI's, bit 16 that firmware can detect the display, bits 8-11 type 1 (VGA). */
#define GOP_ACPI_ADR 0x80010100

struct gop_size {
	UINT32 width, height;
};

/* Modes offered after mode 0 (the size given on the command line). */
static const struct gop_size common_sizes[] = {
    {640, 480},	 {800, 600},   {1024, 768},  {1280, 720},  {1280, 800},	 {1280, 1024},
    {1440, 900}, {1600, 1200}, {1920, 1080}, {1920, 1200}, {2560, 1440},
};

static const EFI_GUID gop_device_guid = {
    0x77c0c1df, 0x3b2c, 0x469e, {0xa0, 0x87, 0x93, 0xb6, 0x1b, 0x7d, 0x39, 0xe4}};

/* VenHw(gop GUID)/AcpiAdr(GOP_ACPI_ADR) */
#pragma pack(push, 1)
struct gop_path {
	VENDOR_DEVICE_PATH device;
	ACPI_ADR_DEVICE_PATH output;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

struct gop_dev {
	UINT32 signature;
	EFI_HANDLE handle;
	EFI_GRAPHICS_OUTPUT_PROTOCOL gop;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE mode;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info; /* of the current mode */
	struct gop_size sizes[ARRAY_SIZE(common_sizes) + 1];
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *fb;
	size_t fb_bytes;
	struct gop_path path;
};

static struct gop_dev *gop_device;

static struct gop_dev *gop_from(EFI_GRAPHICS_OUTPUT_PROTOCOL *this)
{
	struct gop_dev *g;

	if (!this)
		return NULL;
	g = container_of(this, struct gop_dev, gop);
	return g->signature == GOP_SIGNATURE ? g : NULL;
}

static void fill_info(const struct gop_dev *g, UINT32 mode,
		      EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	*info = (EFI_GRAPHICS_OUTPUT_MODE_INFORMATION){
	    .Version = 0,
	    .HorizontalResolution = g->sizes[mode].width,
	    .VerticalResolution = g->sizes[mode].height,
	    .PixelFormat = PixelBlueGreenRedReserved8BitPerColor,
	    .PixelsPerScanLine = g->sizes[mode].width,
	};
}

/* Makes a mode current and clears it to black (12.9.2, SetMode). A fresh mapping is
 * already black: clearing it would only fault in every page at start-up. */
static void switch_mode(struct gop_dev *g, UINT32 mode, bool clear)
{
	UINTN bytes = (UINTN)g->sizes[mode].width * g->sizes[mode].height * PIXEL_SIZE;

	fill_info(g, mode, &g->info);
	g->mode.Mode = mode;
	g->mode.FrameBufferBase = (EFI_PHYSICAL_ADDRESS)(uintptr_t)g->fb;
	g->mode.FrameBufferSize = bytes;
	if (clear)
		memset(g->fb, 0, bytes);
}

/* ---- Blt (12.9.2): the shared engine on the current mode's picture ---- */

static EFI_STATUS EFIAPI gop_blt(EFI_GRAPHICS_OUTPUT_PROTOCOL *this,
				 EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
				 EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx,
				 UINTN dy, UINTN w, UINTN h, UINTN delta)
{
	struct gop_dev *g = gop_from(this);
	struct fb_surface fb;
	EFI_STATUS status;
	EFI_TPL old;

	if (!g)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	fb = (struct fb_surface){g->fb, g->info.HorizontalResolution, g->info.VerticalResolution,
				 g->info.PixelsPerScanLine};
	status = fb_blt(&fb, buffer, op, sx, sy, dx, dy, w, h, delta);
	tpl_restore(old);
	return status;
}

/* ---- QueryMode, SetMode ---- */

static EFI_STATUS EFIAPI gop_query_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode,
					UINTN *size_of_info,
					EFI_GRAPHICS_OUTPUT_MODE_INFORMATION **info)
{
	struct gop_dev *g = gop_from(this);
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *copy;

	if (!g || !size_of_info || !info || mode >= g->mode.MaxMode)
		return EFI_INVALID_PARAMETER;
	copy = pool_alloc_typed(EfiBootServicesData, sizeof(*copy));
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	fill_info(g, mode, copy);
	*size_of_info = sizeof(*copy);
	*info = copy;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI gop_set_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode)
{
	struct gop_dev *g = gop_from(this);
	EFI_TPL old;

	if (!g)
		return EFI_INVALID_PARAMETER;
	if (mode >= g->mode.MaxMode)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	switch_mode(g, mode, true);
	tpl_restore(old);
	return EFI_SUCCESS;
}

/* ---- Creation ---- */

static void path_init(struct gop_path *p)
{
	dp_set_node(&p->device.Header, HARDWARE_DEVICE_PATH, HW_VENDOR_DP, sizeof(p->device));
	p->device.Guid = gop_device_guid;
	dp_set_node(&p->output.Header, ACPI_DEVICE_PATH, ACPI_ADR_DP, sizeof(p->output));
	p->output.ADR = GOP_ACPI_ADR;
	dp_set_end(&p->end);
}

/* Mode 0 is the requested size; the common sizes follow, without a second copy of it.
 * Returns the pixel count of the largest. */
static UINTN list_modes(struct gop_dev *g, UINT32 width, UINT32 height)
{
	UINTN largest = (UINTN)width * height;

	g->sizes[0] = (struct gop_size){width, height};
	g->mode.MaxMode = 1;
	for (size_t i = 0; i < ARRAY_SIZE(common_sizes); i++) {
		const struct gop_size *s = &common_sizes[i];

		if (s->width == width && s->height == height)
			continue;
		g->sizes[g->mode.MaxMode++] = *s;
		largest = MAX(largest, (UINTN)s->width * s->height);
	}
	return largest;
}

static const EFI_GRAPHICS_OUTPUT_PROTOCOL gop_template = {
    .QueryMode = gop_query_mode,
    .SetMode = gop_set_mode,
    .Blt = gop_blt,
};

EFI_STATUS hosted_gop_init(UINT32 width, UINT32 height)
{
	static const EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	struct gop_dev *g;
	EFI_STATUS status;

	if (gop_device)
		return EFI_ALREADY_STARTED;
	if (!width || !height || width > GOP_MAX_SIDE || height > GOP_MAX_SIDE)
		return EFI_INVALID_PARAMETER;
	g = pool_alloc(sizeof(*g));
	if (!g)
		return EFI_OUT_OF_RESOURCES;
	g->signature = GOP_SIGNATURE;
	g->gop = gop_template;
	g->gop.Mode = &g->mode;
	g->mode.Info = &g->info;
	g->mode.SizeOfInfo = sizeof(g->info);
	g->fb_bytes = ALIGN_UP(list_modes(g, width, height) * PIXEL_SIZE, (size_t)EFI_PAGE_SIZE);
	g->fb = mmap(NULL, g->fb_bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (g->fb == MAP_FAILED) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_free;
	}
	switch_mode(g, 0, false);
	path_init(&g->path);
	status =
	    protocol_install_multiple(&g->handle, &gop_guid, &g->gop, &path_guid, &g->path, NULL);
	if (EFI_ERROR(status))
		goto err_unmap;
	gop_device = g;
	return EFI_SUCCESS;

err_unmap:
	munmap(g->fb, g->fb_bytes);
err_free:
	pool_free(g);
	return status;
}

bool gop_current_frame(struct gop_frame *frame)
{
	struct gop_dev *g = gop_device;

	if (!g)
		return false;
	frame->pixels = g->fb;
	frame->width = g->info.HorizontalResolution;
	frame->height = g->info.VerticalResolution;
	frame->stride = g->info.PixelsPerScanLine;
	return true;
}
