/* gop-screen, for tests/qemu/test_video.py: the checks of `gop`, then every mode in turn,
 * optionally (rebind=1) the display controller disconnected and connected again, then a
 * picture drawn with every Blt operation in the mode named by mode=WxH (else the current
 * one), for the test to compare with a QEMU screendump. The summary line comes before the
 * picture, as text printed afterwards would land on the screen; then the program waits
 * for ever. */
#include "console_test.h"
#include <efi/protocol/pci_io.h>

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

#define GRAD 64
#define COPY_W 128 /* row length of the read-back buffer */

static EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
static pixel gradient[GRAD * GRAD];
static pixel copy[COPY_W * 64];

static pixel rgb(UINT8 r, UINT8 g, UINT8 b)
{
	return (pixel){.Blue = b, .Green = g, .Red = r};
}

static EFI_STATUS blt(pixel *buffer, EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy,
		      UINTN dx, UINTN dy, UINTN w, UINTN h, UINTN delta)
{
	return gop->Blt(gop, buffer, op, sx, sy, dx, dy, w, h, delta);
}

static EFI_STATUS fill(UINTN x, UINTN y, UINTN w, UINTN h, pixel color)
{
	return blt(&color, EfiBltVideoFill, 0, 0, x, y, w, h, 0);
}

/* ---- Every mode ---- */

/* After SetMode: Mode describes the mode, all of it is black, its last pixel is on the
 * screen and the next ones are not. */
static void check_mode(UINT32 n, const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *want)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *m = gop->Mode;
	UINT32 w = want->HorizontalResolution, h = want->VerticalResolution;
	const UINT32 *fb = (const UINT32 *)(UINTN)m->FrameBufferBase;
	UINTN lit = 0;

	CHECK_EQ(m->Mode, n);
	CHECK(mem_cmp(m->Info, want, sizeof(*want)) == 0);
	CHECK_EQ(m->FrameBufferSize, (UINT64)w * h * sizeof(pixel));
	for (UINTN i = 0; i < (UINTN)w * h; i++)
		lit += (fb[i] & 0xFFFFFF) != 0;
	CHECK_EQ(lit, 0);
	CHECK_STATUS(fill(w - 1, h - 1, 1, 1, rgb(9, 9, 9)), EFI_SUCCESS);
	CHECK_STATUS(fill(w, 0, 1, 1, rgb(9, 9, 9)), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(0, h, 1, 1, rgb(9, 9, 9)), EFI_INVALID_PARAMETER);
	app_print("gop set mode %u: %ux%u\n", n, w, h);
}

/* Each mode is set over a framebuffer painted white where the mode will show. */
static void each_mode(void)
{
	for (UINT32 n = 0; n < gop->Mode->MaxMode; n++) {
		EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = NULL;
		UINT32 *fb = (UINT32 *)(UINTN)gop->Mode->FrameBufferBase;
		UINTN size;

		if (!CHECK_STATUS(gop->QueryMode(gop, n, &size, &info), EFI_SUCCESS))
			continue;
		for (UINTN i = 0; i < (UINTN)info->HorizontalResolution * info->VerticalResolution;
		     i++)
			fb[i] = 0x00FFFFFF;
		if (CHECK_STATUS(gop->SetMode(gop, n), EFI_SUCCESS))
			check_mode(n, info);
		app_bs->FreePool(info);
	}
	CHECK_STATUS(gop->SetMode(gop, 0), EFI_SUCCESS);
}

/* ---- Rebinding the controller ---- */

static EFI_HANDLE display_controller(void)
{
	EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL *path;
	EFI_HANDLE *handles = NULL, controller = NULL;
	UINTN count = 0;

	if (!CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, &gop_guid, NULL, &count, &handles),
			  EFI_SUCCESS))
		return NULL;
	if (CHECK_STATUS(app_bs->HandleProtocol(handles[0], &path_guid, (void **)&path),
			 EFI_SUCCESS))
		CHECK_STATUS(app_bs->LocateDevicePath(&pci_io_guid, &path, &controller),
			     EFI_SUCCESS);
	app_bs->FreePool(handles);
	return controller;
}

static bool gop_present(void)
{
	EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	void *found;

	return !EFI_ERROR(app_bs->LocateProtocol(&gop_guid, NULL, &found));
}

/* Stop removes the GOP; Start with an End node starts the device without a child; a
 * plain connect brings the GOP back in mode 0. */
static void rebind(void)
{
	EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL end = {
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
	EFI_HANDLE controller = display_controller();

	if (!controller)
		return;
	CHECK_STATUS(app_bs->DisconnectController(controller, NULL, NULL), EFI_SUCCESS);
	CHECK(!gop_present());
	CHECK_STATUS(app_bs->ConnectController(controller, NULL, &end, FALSE), EFI_SUCCESS);
	CHECK(!gop_present());
	CHECK_STATUS(app_bs->DisconnectController(controller, NULL, NULL), EFI_SUCCESS);
	CHECK_STATUS(app_bs->ConnectController(controller, NULL, NULL, TRUE), EFI_SUCCESS);
	if (!CHECK_STATUS(app_bs->LocateProtocol(&gop_guid, NULL, (void **)&gop), EFI_SUCCESS)) {
		gop = NULL;
		return;
	}
	CHECK_EQ(gop->Mode->Mode, 0);
	app_print("gop rebind done\n");
}

/* ---- The picture ---- */

/* The mode named WxH, or the current one. */
static UINT32 find_mode(const char *name)
{
	for (UINT32 n = 0; n < gop->Mode->MaxMode; n++) {
		EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = NULL;
		char text[24];
		UINTN size;

		if (EFI_ERROR(gop->QueryMode(gop, n, &size, &info)))
			continue;
		format_sn(text, sizeof(text), "%ux%u", info->HorizontalResolution,
			  info->VerticalResolution);
		app_bs->FreePool(info);
		if (str8_cmp(text, name) == 0)
			return n;
	}
	CHECK_FAIL("no mode %s", name);
	return gop->Mode->Mode;
}

/* tests/qemu/test_video.py replays these steps: keep the two in step. */
static void draw_picture(void)
{
	UINT32 w = gop->Mode->Info->HorizontalResolution, h = gop->Mode->Info->VerticalResolution;
	UINT32 *fb = (UINT32 *)(UINTN)gop->Mode->FrameBufferBase;
	UINT32 stride = gop->Mode->Info->PixelsPerScanLine;

	for (UINTN y = 0; y < GRAD; y++)
		for (UINTN x = 0; x < GRAD; x++)
			gradient[y * GRAD + x] = rgb((UINT8)(x * 4), (UINT8)(y * 4), 0x80);
	fill(0, 0, w, h, rgb(0x20, 0x40, 0x60));
	fill(10, 10, 100, 50, rgb(0xff, 0, 0));
	fill(w - 30, h - 20, 30, 20, rgb(0, 0xff, 0));
	fill(w - 1, 0, 1, 1, rgb(0xff, 0xff, 0xff));
	fill(0, h - 1, 1, 1, rgb(0xff, 0xff, 0));
	blt(gradient, EfiBltBufferToVideo, 0, 0, 200, 100, GRAD, GRAD, 0);
	blt(gradient, EfiBltBufferToVideo, 8, 4, 300, 100, 16, 8, GRAD * sizeof(pixel));
	blt(NULL, EfiBltVideoToVideo, 200, 100, 220, 120, GRAD, GRAD, 0);
	blt(NULL, EfiBltVideoToVideo, 220, 120, 210, 110, GRAD, GRAD, 0);
	blt(copy, EfiBltVideoToBltBuffer, 5, 5, 3, 2, 110, 60, COPY_W * sizeof(pixel));
	blt(copy, EfiBltBufferToVideo, 3, 2, 400, 300, 110, 60, COPY_W * sizeof(pixel));
	for (UINTN y = 0; y < 8; y++)
		for (UINTN x = 0; x < 8; x++)
			fb[(20 + y) * stride + 500 + x] = 0x00010203;
}

void ct_gop_screen(void)
{
	char mode_name[24];
	UINT32 mode;

	gop = ct_gop_checks();
	if (gop)
		each_mode();
	if (gop && ct_option("rebind", mode_name, sizeof(mode_name)))
		rebind();
	if (!gop) {
		check_print_summary("console-test");
		return;
	}
	mode = ct_option("mode", mode_name, sizeof(mode_name)) ? find_mode(mode_name)
							       : gop->Mode->Mode;
	CHECK_STATUS(gop->SetMode(gop, mode), EFI_SUCCESS);
	app_print("gop-screen: drawing %ux%u in mode %u\n", gop->Mode->Info->HorizontalResolution,
		  gop->Mode->Info->VerticalResolution, gop->Mode->Mode);
	check_print_summary("console-test");
	if (app_st->ConOut)
		app_st->ConOut->EnableCursor(app_st->ConOut, FALSE);
	draw_picture();
	for (;;)
		app_bs->Stall(1000000);
}
