/* The boot logo (bds/boot_logo.c) on a fake GOP that only Blts: drawn centred pixel for
 * pixel, refused on a screen smaller than the logo, left out without a GOP and when the
 * BootLogo variable is 0; and the one-shot "covered" callback. */
#include <stdlib.h>
#include <string.h>

#include "bds_fixture.h"
#include "support/test.h"
#include <ember/core/boot_logo.h>
#include <ember/core/core.h>
#include <ember/lib/bmp.h>
#include <ember/lib/guids.h>

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

#define SCREEN_W 640
#define SCREEN_H 480

static struct {
	EFI_GRAPHICS_OUTPUT_PROTOCOL gop;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE mode;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info;
	EFI_HANDLE handle;
	pixel fb[SCREEN_W * SCREEN_H];
	unsigned blts;
} screen;

static EFI_STATUS EFIAPI g_query(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode, UINTN *size,
				 EFI_GRAPHICS_OUTPUT_MODE_INFORMATION **info)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI g_set_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode)
{
	return mode ? EFI_UNSUPPORTED : EFI_SUCCESS;
}

/* Buffer to video only, as the logo draws. */
static EFI_STATUS EFIAPI g_blt(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, pixel *buf,
			       EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx,
			       UINTN dy, UINTN w, UINTN h, UINTN delta)
{
	UINTN stride = delta ? delta / sizeof(pixel) : w;

	screen.blts++;
	if (op != EfiBltBufferToVideo || dx + w > screen.info.HorizontalResolution ||
	    dy + h > screen.info.VerticalResolution)
		return EFI_INVALID_PARAMETER;
	for (UINTN y = 0; y < h; y++)
		memcpy(&screen.fb[(dy + y) * SCREEN_W + dx], &buf[(sy + y) * stride + sx],
		       w * sizeof(pixel));
	return EFI_SUCCESS;
}

static void install_screen(UINT32 w, UINT32 h)
{
	memset(&screen, 0, sizeof(screen));
	screen.gop = (EFI_GRAPHICS_OUTPUT_PROTOCOL){g_query, g_set_mode, g_blt, &screen.mode};
	screen.mode = (EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE){
	    .MaxMode = 1, .Info = &screen.info, .SizeOfInfo = sizeof(screen.info)};
	screen.info.HorizontalResolution = w;
	screen.info.VerticalResolution = h;
	screen.info.PixelsPerScanLine = SCREEN_W;
	ASSERT_STATUS(
	    protocol_install(&screen.handle, &efi_graphics_output_protocol_guid, &screen.gop),
	    EFI_SUCCESS);
}

static void remove_screen(void)
{
	EXPECT_STATUS(
	    protocol_uninstall(screen.handle, &efi_graphics_output_protocol_guid, &screen.gop),
	    EFI_SUCCESS);
}

static void set_boot_logo(UINT8 value)
{
	static const EFI_GUID guid = EMBER_BOOT_LOGO_GUID;

	ASSERT_STATUS(variable_set(EMBER_BOOT_LOGO_VARIABLE, &guid,
				   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS, 1,
				   &value),
		      EFI_SUCCESS);
}

TEST(boot_logo_is_drawn_centred)
{
	struct boot_logo_place place = {0, 0};
	struct bmp_image image;
	pixel *want;
	bool same = true;

	ASSERT_STATUS(bmp_parse(boot_logo_bmp, boot_logo_bmp_size, &image), EFI_SUCCESS);
	ASSERT(image.width <= SCREEN_W && image.height <= SCREEN_H);
	want = calloc((size_t)image.width * image.height, sizeof(*want));
	ASSERT(want);
	ASSERT_STATUS(bmp_to_blt(&image, want, (UINTN)image.width * image.height), EFI_SUCCESS);
	install_screen(SCREEN_W, SCREEN_H);
	EXPECT_STATUS(boot_logo_draw(&place), EFI_SUCCESS);
	EXPECT_EQ(place.x, (SCREEN_W - image.width) / 2);
	EXPECT_EQ(place.y, (SCREEN_H - image.height) / 2);
	for (UINT32 y = 0; y < image.height && same; y++)
		same = !memcmp(&screen.fb[(place.y + y) * SCREEN_W + place.x],
			       &want[(size_t)y * image.width], image.width * sizeof(pixel));
	EXPECT(same);
	remove_screen();
	free(want);
}

TEST(boot_logo_needs_a_screen_as_big_as_itself)
{
	struct boot_logo_place place;
	struct bmp_image image;

	ASSERT_STATUS(bmp_parse(boot_logo_bmp, boot_logo_bmp_size, &image), EFI_SUCCESS);
	install_screen(image.width - 1, SCREEN_H);
	EXPECT_STATUS(boot_logo_draw(&place), EFI_BAD_BUFFER_SIZE);
	EXPECT_EQ(screen.blts, 0);
	remove_screen();
}

TEST(boot_logo_without_a_gop)
{
	struct boot_logo_place place;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;

	ASSERT(EFI_ERROR(protocol_locate(&efi_graphics_output_protocol_guid, (void **)&gop)));
	EXPECT_STATUS(boot_logo_draw(&place), EFI_NOT_FOUND);
}

/* BootLogo = 0 turns it off; any other value shows it. */
static void turned_off(void)
{
	struct boot_logo_place place;

	bds_world_start();
	install_screen(SCREEN_W, SCREEN_H);
	set_boot_logo(0);
	EXPECT_STATUS(boot_logo_draw(&place), EFI_NOT_STARTED);
	EXPECT_EQ(screen.blts, 0);
	set_boot_logo(1);
	EXPECT_STATUS(boot_logo_draw(&place), EFI_SUCCESS);
	EXPECT_EQ(screen.blts, 1);
}

TEST(boot_logo_turned_off_by_its_variable)
{
	RUN_ISOLATED(turned_off);
}

static unsigned covered_calls;

static void count_covered(void)
{
	covered_calls++;
}

TEST(boot_logo_covered_calls_back_once)
{
	covered_calls = 0;
	boot_logo_covered(); /* nobody asked: nothing happens */
	boot_logo_when_covered(count_covered);
	boot_logo_covered();
	boot_logo_covered();
	EXPECT_EQ(covered_calls, 1);
}
