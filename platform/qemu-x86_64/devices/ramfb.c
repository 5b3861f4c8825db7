/* QEMU's ramfb (-device ramfb): a framebuffer in guest RAM that QEMU shows once the firmware
 * writes its address and geometry to the fw_cfg file etc/ramfb, for machines without a PCI
 * display. Ember publishes a Graphics Output Protocol over it on a handle of its own,
 * VenHw(ramfb)/AcpiAdr(display). The 28-byte configuration is big-endian {u64 address,
 * u32 fourcc, u32 flags, u32 width, u32 height, u32 stride} (QEMU hw/display/ramfb.c). */
#include <efi/protocol/device_path.h>
#include <efi/protocol/graphics_output.h>
#include <ember/core/core.h>
#include <ember/lib/fb_blt.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/util.h>
#include "tables/fw_cfg.h"

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

static struct ramfb {
	uint16_t select; /* etc/ramfb */
	EFI_PHYSICAL_ADDRESS fb;
	EFI_HANDLE handle;
	EFI_GRAPHICS_OUTPUT_PROTOCOL gop;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE mode;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info;
	struct ramfb_path path;
} ramfb;

static void ramfb_mode_info(UINT32 n, EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	*info = (EFI_GRAPHICS_OUTPUT_MODE_INFORMATION){
	    .HorizontalResolution = ramfb_sizes[n][0],
	    .VerticalResolution = ramfb_sizes[n][1],
	    .PixelFormat = PixelBlueGreenRedReserved8BitPerColor,
	    .PixelsPerScanLine = ramfb_sizes[n][0],
	};
}

static void ramfb_surface(struct fb_surface *fb)
{
	*fb = (struct fb_surface){(EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)(uintptr_t)ramfb.fb,
				  ramfb.info.HorizontalResolution, ramfb.info.VerticalResolution,
				  ramfb.info.PixelsPerScanLine};
}

/* Clears the new picture, then tells QEMU where and how big it is. */
static EFI_STATUS ramfb_set_mode(UINT32 n)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info;
	struct ramfb_config config;
	struct fb_surface fb;

	ramfb_mode_info(n, &info);
	config = (struct ramfb_config){
	    .address = __builtin_bswap64(ramfb.fb),
	    .fourcc = __builtin_bswap32(RAMFB_XRGB8888),
	    .width = __builtin_bswap32(info.HorizontalResolution),
	    .height = __builtin_bswap32(info.VerticalResolution),
	    .stride = __builtin_bswap32(info.PixelsPerScanLine * BYTES_PER_PIXEL),
	};
	ramfb.info = info;
	ramfb_surface(&fb);
	fb_clear(&fb);
	if (!fw_cfg_write(ramfb.select, &config, sizeof(config)))
		return EFI_DEVICE_ERROR;
	ramfb.mode.Mode = n;
	ramfb.mode.FrameBufferSize =
	    (UINTN)info.PixelsPerScanLine * info.VerticalResolution * BYTES_PER_PIXEL;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ramfb_gop_query_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 n,
					      UINTN *size_of_info,
					      EFI_GRAPHICS_OUTPUT_MODE_INFORMATION **info)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *copy;

	if (this != &ramfb.gop || !size_of_info || !info || n >= ARRAY_SIZE(ramfb_sizes))
		return EFI_INVALID_PARAMETER;
	copy = pool_alloc_typed(EfiBootServicesData, sizeof(*copy));
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	ramfb_mode_info(n, copy);
	*size_of_info = sizeof(*copy);
	*info = copy;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ramfb_gop_set_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 n)
{
	EFI_STATUS status;
	EFI_TPL old;

	if (this != &ramfb.gop)
		return EFI_INVALID_PARAMETER;
	if (n >= ARRAY_SIZE(ramfb_sizes))
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	status = ramfb_set_mode(n);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI ramfb_gop_blt(EFI_GRAPHICS_OUTPUT_PROTOCOL *this,
				       EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
				       EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy,
				       UINTN dx, UINTN dy, UINTN width, UINTN height, UINTN delta)
{
	struct fb_surface fb;
	EFI_STATUS status;
	EFI_TPL old;

	if (this != &ramfb.gop)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	ramfb_surface(&fb);
	status = fb_blt(&fb, buffer, op, sx, sy, dx, dy, width, height, delta);
	tpl_restore(old);
	return status;
}

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

/* Publishes the GOP when QEMU has a ramfb device; none is no error. */
static EFI_STATUS ramfb_publish(void)
{
	static const EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	uint32_t size;
	EFI_STATUS status;

	if (!fw_cfg_find("etc/ramfb", &ramfb.select, &size) || size != sizeof(struct ramfb_config))
		return EFI_SUCCESS;
	ramfb.fb = 0xFFFFFFFF; /* below 4 GiB, where 32-bit OS code can reach it */
	status =
	    mem_allocate_pages(AllocateMaxAddress, EfiReservedMemoryType, ramfb_pages(), &ramfb.fb);
	if (EFI_ERROR(status))
		return status;
	ramfb.gop = (EFI_GRAPHICS_OUTPUT_PROTOCOL){ramfb_gop_query_mode, ramfb_gop_set_mode,
						   ramfb_gop_blt, &ramfb.mode};
	ramfb.mode = (EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE){
	    .MaxMode = ARRAY_SIZE(ramfb_sizes),
	    .Info = &ramfb.info,
	    .SizeOfInfo = sizeof(ramfb.info),
	    .FrameBufferBase = ramfb.fb,
	};
	status = ramfb_set_mode(0);
	if (EFI_ERROR(status))
		goto err_free;
	ramfb_path_init(&ramfb.path);
	status = protocol_install_multiple(&ramfb.handle, &gop_guid, &ramfb.gop, &path_guid,
					   &ramfb.path, NULL);
	if (EFI_ERROR(status))
		goto err_free;
	log_info("ramfb: framebuffer at %#llx\n", (unsigned long long)ramfb.fb);
	return EFI_SUCCESS;

err_free:
	mem_free_pages(ramfb.fb, ramfb_pages());
	return status;
}
EMBER_INIT(INIT_CONSOLE, ramfb_publish);
