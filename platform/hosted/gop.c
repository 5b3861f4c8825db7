/* EFI_GRAPHICS_OUTPUT_PROTOCOL (UEFI 2.10, 12.9) over a framebuffer in host memory.
 * The framebuffer is an mmap of its own, outside the core's RAM, standing for a graphics
 * card's memory: it is sized for the largest mode and each mode shows its top part. */
#include <sys/mman.h>

#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/drivers/gop_front.h>
#include <ember/lib/util.h>
#include "gop.h"
#include "hosted.h"

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
	struct gop_front front;
	EFI_HANDLE handle;
	UINT32 mode_count;
	struct gop_size sizes[ARRAY_SIZE(common_sizes) + 1];
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *fb;
	size_t fb_bytes;
	bool fresh; /* the mapping was never drawn in: still all zero */
	struct gop_path path;
};

static struct gop_dev *gop_device;

static EFI_STATUS gop_query_mode(struct gop_front *front, UINT32 mode,
				 EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	struct gop_dev *g = container_of(front, struct gop_dev, front);

	*info = (EFI_GRAPHICS_OUTPUT_MODE_INFORMATION){
	    .Version = 0,
	    .HorizontalResolution = g->sizes[mode].width,
	    .VerticalResolution = g->sizes[mode].height,
	    .PixelFormat = PixelBlueGreenRedReserved8BitPerColor,
	    .PixelsPerScanLine = g->sizes[mode].width,
	};
	return EFI_SUCCESS;
}

/* Every mode shows the top of the one mapping. A fresh mapping is black already: clearing
 * it would only fault in every page at start-up. */
static EFI_STATUS gop_set_mode(struct gop_front *front, UINT32 mode, struct gop_front_fb *fb)
{
	struct gop_dev *g = container_of(front, struct gop_dev, front);

	fb->pixels = g->fb;
	fb->black = g->fresh;
	g->fresh = false;
	return EFI_SUCCESS;
}

static const struct gop_front_ops gop_ops = {
    .query_mode = gop_query_mode,
    .set_mode = gop_set_mode,
};

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
	g->mode_count = 1;
	for (size_t i = 0; i < ARRAY_SIZE(common_sizes); i++) {
		const struct gop_size *s = &common_sizes[i];

		if (s->width == width && s->height == height)
			continue;
		g->sizes[g->mode_count++] = *s;
		largest = MAX(largest, (UINTN)s->width * s->height);
	}
	return largest;
}

EFI_STATUS hosted_gop_init(UINT32 width, UINT32 height)
{
	struct gop_dev *g;
	EFI_STATUS status;

	if (gop_device)
		return EFI_ALREADY_STARTED;
	if (!width || !height || width > GOP_MAX_SIDE || height > GOP_MAX_SIDE)
		return EFI_INVALID_PARAMETER;
	/* In pool memory: the GOP front end checks callers' pointers by memory ownership. */
	g = pool_alloc(sizeof(*g));
	if (!g)
		return EFI_OUT_OF_RESOURCES;
	g->fb_bytes = ALIGN_UP(list_modes(g, width, height) * PIXEL_SIZE, (size_t)EFI_PAGE_SIZE);
	g->fb = mmap(NULL, g->fb_bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (g->fb == MAP_FAILED) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_free;
	}
	g->fresh = true;
	gop_front_init(&g->front, &gop_ops, g->mode_count);
	status = gop_front_set_boot_mode(&g->front, 0);
	if (EFI_ERROR(status))
		goto err_unmap;
	path_init(&g->path);
	status = gop_front_install(&g->front, &g->handle, &g->path.device.Header);
	if (EFI_ERROR(status))
		goto err_unmap;
	gop_device = g;
	return EFI_SUCCESS;

err_unmap:
	munmap(g->fb, g->fb_bytes);
err_free:
	g->front.signature = 0;
	pool_free(g);
	return status;
}

bool gop_current_frame(struct gop_frame *frame)
{
	struct gop_dev *g = gop_device;

	if (!g)
		return false;
	frame->pixels = g->front.fb.pixels;
	frame->width = g->front.fb.width;
	frame->height = g->front.fb.height;
	frame->stride = g->front.fb.stride;
	return true;
}
