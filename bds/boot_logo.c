/* Drawing the boot logo (include/ember/core/boot_logo.h) through the GOP's Blt, so that a
 * Blt-only GOP works too. The logo is parsed with the bounded BMP parser like any image. */
#define LOG_PREFIX "logo: "
#include <ember/core/boot_logo.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/bmp.h>
#include <ember/lib/guids.h>

static void (*on_covered)(void);

void boot_logo_when_covered(void (*fn)(void))
{
	on_covered = fn;
}

void boot_logo_covered(void)
{
	void (*fn)(void) = on_covered;

	on_covered = NULL;
	if (fn)
		fn();
}

/* Whether the BootLogo variable is one byte 0. */
static bool turned_off(void)
{
	static const EFI_GUID guid = EMBER_BOOT_LOGO_GUID;
	UINT8 value = 1;
	UINTN size = sizeof(value);

	return !EFI_ERROR(variable_get(EMBER_BOOT_LOGO_VARIABLE, &guid, NULL, &size, &value)) &&
	       size == 1 && value == 0;
}

/* Centres an image of w x h on the GOP's mode, whose screen must be at least that big. */
static EFI_STATUS centre(const EFI_GRAPHICS_OUTPUT_PROTOCOL *gop, UINT32 w, UINT32 h,
			 struct boot_logo_place *place)
{
	UINT32 screen_w = gop->Mode->Info->HorizontalResolution;
	UINT32 screen_h = gop->Mode->Info->VerticalResolution;

	if (screen_w < w || screen_h < h) {
		log_debug("the %ux%u screen is smaller than the %ux%u logo\n", screen_w, screen_h,
			  w, h);
		return EFI_BAD_BUFFER_SIZE;
	}
	place->x = (screen_w - w) / 2;
	place->y = (screen_h - h) / 2;
	return EFI_SUCCESS;
}

EFI_STATUS boot_logo_draw(struct boot_logo_place *place)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *pixels;
	struct bmp_image image;
	EFI_STATUS status;

	if (turned_off()) {
		log_info("turned off by the BootLogo variable\n");
		return EFI_NOT_STARTED;
	}
	status = protocol_locate(&efi_graphics_output_protocol_guid, (void **)&gop);
	if (EFI_ERROR(status)) {
		log_debug("no Graphics Output: no logo\n");
		return EFI_NOT_FOUND;
	}
	status = bmp_parse(boot_logo_bmp, boot_logo_bmp_size, &image);
	if (EFI_ERROR(status)) {
		log_debug("the built-in logo does not parse: %r\n", status);
		return status;
	}
	status = centre(gop, image.width, image.height, place);
	if (EFI_ERROR(status))
		return status;
	pixels = pool_alloc((UINTN)image.width * image.height * sizeof(*pixels));
	if (!pixels) {
		log_debug("no memory for the logo's pixels\n");
		return EFI_OUT_OF_RESOURCES;
	}
	bmp_to_blt(&image, pixels, (UINTN)image.width * image.height);
	/* No clearing first: the screen is black (SetMode cleared it, so did the console's
	 * reset, and nothing writes to ConOut before the boot manager); a full-screen fill
	 * would cost a millisecond of boot time at 1024x768. */
	status = gop->Blt(gop, pixels, EfiBltBufferToVideo, 0, 0, place->x, place->y, image.width,
			  image.height, 0);
	pool_free(pixels);
	if (EFI_ERROR(status))
		log_debug("Blt: %r\n", status);
	return status;
}
