/* QEMU's ramfb (-device ramfb): a framebuffer in guest RAM that QEMU shows once the firmware
 * writes its address and geometry to the fw_cfg file etc/ramfb, for machines without a PCI
 * display. Ember publishes a Graphics Output Protocol over it on a handle of its own,
 * VenHw(ramfb)/AcpiAdr(display). The 28-byte configuration is big-endian {u64 address,
 * u32 fourcc, u32 flags, u32 width, u32 height, u32 stride} (QEMU hw/display/ramfb.c).
 * The QEMU platforms (x86-64, AArch64) publish it with their fw_cfg access. */
#define LOG_PREFIX "ramfb: "
#include <efi/protocol/device_path.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/gop_front.h>
#include <ember/drivers/ramfb.h>
#include <ember/lib/util.h>

#define RAMFB_XRGB8888 0x34325258 /* DRM fourcc 'XR24': what GOP calls BGR reserved 8-bit */
#define RAMFB_ACPI_ADR 0x80010100 /* ACPI _DOD ID: firmware-detectable VGA-type output */
#define BYTES_PER_PIXEL 4

#pragma pack(push, 1)
struct ramfb_config {
	UINT64 address;
	UINT32 fourcc, flags, width, height, stride;
};

struct ramfb_path {
	VENDOR_DEVICE_PATH vendor;
	ACPI_ADR_DEVICE_PATH output;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

_Static_assert(sizeof(struct ramfb_config) == 28, "etc/ramfb layout");

/* Mode 0, set at start, is 1024x768 as on the PCI displays; the framebuffer holds the
 * largest. */
static const UINT32 ramfb_sizes[][2] = {{1024, 768}, {640, 480},  {800, 600},
					{1280, 720}, {1280, 800}, {1920, 1080}};

static const EFI_GUID ramfb_vendor_guid = {
    0x8411c6a4, 0xbaa8, 0x47b7, {0x92, 0xff, 0xa1, 0x0e, 0x91, 0x23, 0x52, 0xcb}};

struct ramfb {
	struct gop_front front;
	uint16_t select; /* etc/ramfb */
	bool (*write)(uint16_t select, const void *buffer, uint32_t size);
	EFI_PHYSICAL_ADDRESS fb;
	EFI_HANDLE handle;
	struct ramfb_path path;
};

static EFI_STATUS ramfb_query_mode(struct gop_front *front, UINT32 n,
				   EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	*info = (EFI_GRAPHICS_OUTPUT_MODE_INFORMATION){
	    .HorizontalResolution = ramfb_sizes[n][0],
	    .VerticalResolution = ramfb_sizes[n][1],
	    .PixelFormat = PixelBlueGreenRedReserved8BitPerColor,
	    .PixelsPerScanLine = ramfb_sizes[n][0],
	};
	return EFI_SUCCESS;
}

/* Tells QEMU where the picture is and how big; the front end then clears it. */
static EFI_STATUS ramfb_set_mode(struct gop_front *front, UINT32 n, struct gop_front_fb *fb)
{
	struct ramfb *r = container_of(front, struct ramfb, front);
	struct ramfb_config config = {
	    .address = __builtin_bswap64(r->fb),
	    .fourcc = __builtin_bswap32(RAMFB_XRGB8888),
	    .width = __builtin_bswap32(ramfb_sizes[n][0]),
	    .height = __builtin_bswap32(ramfb_sizes[n][1]),
	    .stride = __builtin_bswap32(ramfb_sizes[n][0] * BYTES_PER_PIXEL),
	};

	if (!r->write(r->select, &config, sizeof(config)))
		return EFI_DEVICE_ERROR;
	fb->pixels = (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)(uintptr_t)r->fb;
	return EFI_SUCCESS;
}

static const struct gop_front_ops ramfb_ops = {
    .query_mode = ramfb_query_mode,
    .set_mode = ramfb_set_mode,
};

static void ramfb_path_init(struct ramfb_path *p)
{
	p->vendor.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(p->vendor), 0}};
	p->vendor.Guid = ramfb_vendor_guid;
	p->output.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){ACPI_DEVICE_PATH, ACPI_ADR_DP, {sizeof(p->output), 0}};
	p->output.ADR = RAMFB_ACPI_ADR;
	p->end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {sizeof(p->end), 0}};
}

/* The framebuffer, sized for the largest mode, is reserved memory: the OS keeps showing it
 * (efifb) after ExitBootServices, so it must not be handed out as free RAM. */
static UINTN ramfb_pages(void)
{
	UINT64 largest = 0;

	for (size_t i = 0; i < ARRAY_SIZE(ramfb_sizes); i++)
		largest = MAX(largest, (UINT64)ramfb_sizes[i][0] * ramfb_sizes[i][1]);
	return ALIGN_UP(largest * BYTES_PER_PIXEL, EFI_PAGE_SIZE) / EFI_PAGE_SIZE;
}

EFI_STATUS ramfb_publish(const struct ramfb_fw_cfg *fw_cfg)
{
	uint16_t select;
	uint32_t size;
	struct ramfb *r;
	EFI_STATUS status;

	if (!fw_cfg->find("etc/ramfb", &select, &size) || size != sizeof(struct ramfb_config))
		return EFI_SUCCESS;
	/* In pool memory: the GOP front end checks callers' pointers by memory ownership. */
	r = pool_alloc(sizeof(*r));
	if (!r)
		return EFI_OUT_OF_RESOURCES;
	r->select = select;
	r->write = fw_cfg->write;
	r->fb = 0xFFFFFFFF; /* below 4 GiB, where 32-bit OS code can reach it */
	status =
	    mem_allocate_pages(AllocateMaxAddress, EfiReservedMemoryType, ramfb_pages(), &r->fb);
	if (EFI_ERROR(status)) {
		log_debug("framebuffer: %r\n", status);
		goto err_free;
	}
	gop_front_init(&r->front, &ramfb_ops, ARRAY_SIZE(ramfb_sizes));
	status = gop_front_set_boot_mode(&r->front, 0);
	if (EFI_ERROR(status))
		goto err_pages;
	ramfb_path_init(&r->path);
	status = gop_front_install(&r->front, &r->handle, &r->path.vendor.Header);
	if (EFI_ERROR(status)) {
		log_debug("installing the GOP: %r\n", status);
		goto err_pages;
	}
	log_info("framebuffer at %#llx\n", (unsigned long long)r->fb);
	return EFI_SUCCESS;

err_pages:
	mem_free_pages(r->fb, ramfb_pages());
err_free:
	r->front.signature = 0;
	pool_free(r);
	return status;
}
