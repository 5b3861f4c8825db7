/* Graphics Output (UEFI 2.10, 12.9): modes, SetMode, every Blt operation and its bounds,
 * the framebuffer itself; then a test picture in mode 0 for ember-run --screenshot.
 * Colours are compared without the Reserved byte, which hardware need not keep. */
#include "console_test.h"

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

#define PIXEL_SIZE sizeof(pixel)
#define GRAD 64

static EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
static pixel scratch[128 * 128];
static pixel gradient[GRAD * GRAD];

static pixel rgb(UINT8 r, UINT8 g, UINT8 b)
{
	return (pixel){.Blue = b, .Green = g, .Red = r};
}

static bool same(pixel a, pixel b)
{
	return a.Red == b.Red && a.Green == b.Green && a.Blue == b.Blue;
}

static UINT32 width(void)
{
	return gop->Mode->Info->HorizontalResolution;
}

static UINT32 height(void)
{
	return gop->Mode->Info->VerticalResolution;
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

/* Reads a w x h rectangle (w * h <= 128 * 128) into scratch. */
static bool read_back(UINTN x, UINTN y, UINTN w, UINTN h)
{
	return CHECK_STATUS(blt(scratch, EfiBltVideoToBltBuffer, x, y, 0, 0, w, h, 0), EFI_SUCCESS);
}

/* Counts the pixels of scratch (w x h) that differ from what expect() says. */
static UINTN mismatches(UINTN w, UINTN h, pixel (*expect)(UINTN x, UINTN y))
{
	UINTN bad = 0;

	for (UINTN y = 0; y < h; y++)
		for (UINTN x = 0; x < w; x++)
			bad += !same(scratch[y * w + x], expect(x, y));
	return bad;
}

static pixel gradient_at(UINTN x, UINTN y)
{
	return rgb((UINT8)(x * 4), (UINT8)(y * 4), 0x80);
}

static void make_gradient(void)
{
	for (UINTN y = 0; y < GRAD; y++)
		for (UINTN x = 0; x < GRAD; x++)
			gradient[y * GRAD + x] = gradient_at(x, y);
}

/* ---- Modes ---- */

static void gop_modes(void)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *m = gop->Mode;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = NULL;
	UINT32 seen[64][2];
	UINTN size = 0;

	CHECK_EQ(m->Mode, 0);
	CHECK(m->MaxMode >= 2 && m->MaxMode <= ARRAY_SIZE(seen));
	CHECK_EQ(m->SizeOfInfo, sizeof(*m->Info));
	CHECK_EQ(m->Info->PixelFormat, PixelBlueGreenRedReserved8BitPerColor);
	CHECK_EQ(m->Info->PixelsPerScanLine, m->Info->HorizontalResolution);
	CHECK_EQ(m->FrameBufferSize, (UINT64)width() * height() * PIXEL_SIZE);
	CHECK(m->FrameBufferBase != 0);
	for (UINT32 i = 0; i < m->MaxMode && i < ARRAY_SIZE(seen); i++) {
		if (!CHECK_STATUS(gop->QueryMode(gop, i, &size, &info), EFI_SUCCESS))
			continue;
		app_print("gop mode %u: %ux%u\n", i, info->HorizontalResolution,
			  info->VerticalResolution);
		CHECK_EQ(size, sizeof(*info));
		CHECK_EQ(info->PixelFormat, PixelBlueGreenRedReserved8BitPerColor);
		CHECK_EQ(info->PixelsPerScanLine, info->HorizontalResolution);
		seen[i][0] = info->HorizontalResolution;
		seen[i][1] = info->VerticalResolution;
		for (UINT32 j = 0; j < i; j++)
			if (seen[j][0] == seen[i][0] && seen[j][1] == seen[i][1])
				CHECK_FAIL("modes %u and %u are both %ux%u", j, i, seen[i][0],
					   seen[i][1]);
		if (i == 0)
			CHECK(info->HorizontalResolution == width() &&
			      info->VerticalResolution == height());
		CHECK_STATUS(app_bs->FreePool(info), EFI_SUCCESS);
	}
	CHECK_STATUS(gop->QueryMode(gop, m->MaxMode, &size, &info), EFI_INVALID_PARAMETER);
	CHECK_STATUS(gop->QueryMode(gop, 0, NULL, &info), EFI_INVALID_PARAMETER);
	CHECK_STATUS(gop->QueryMode(gop, 0, &size, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(gop->SetMode(gop, m->MaxMode), EFI_UNSUPPORTED);
}

static pixel black_at(UINTN x, UINTN y)
{
	return rgb(0, 0, 0);
}

/* SetMode changes the geometry and clears to black, the same mode included. */
static void gop_set_mode(void)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = NULL;
	UINTN size;

	CHECK_STATUS(fill(0, 0, width(), height(), rgb(255, 255, 255)), EFI_SUCCESS);
	if (!CHECK_STATUS(gop->QueryMode(gop, 1, &size, &info), EFI_SUCCESS))
		return;
	CHECK_STATUS(gop->SetMode(gop, 1), EFI_SUCCESS);
	CHECK_EQ(gop->Mode->Mode, 1);
	CHECK(width() == info->HorizontalResolution && height() == info->VerticalResolution);
	CHECK_EQ(gop->Mode->FrameBufferSize, (UINT64)width() * height() * PIXEL_SIZE);
	app_bs->FreePool(info);
	if (read_back(0, 0, 128, 128))
		CHECK_EQ(mismatches(128, 128, black_at), 0);
	if (read_back(width() - 128, height() - 128, 128, 128))
		CHECK_EQ(mismatches(128, 128, black_at), 0);
	CHECK_STATUS(fill(0, 0, 16, 16, rgb(255, 255, 255)), EFI_SUCCESS);
	CHECK_STATUS(gop->SetMode(gop, 1), EFI_SUCCESS);
	if (read_back(0, 0, 16, 16))
		CHECK_EQ(mismatches(16, 16, black_at), 0);
	CHECK_STATUS(gop->SetMode(gop, 0), EFI_SUCCESS);
	CHECK_EQ(gop->Mode->Mode, 0);
}

/* ---- Blt ---- */

static void gop_blt_errors(void)
{
	UINTN w = width(), h = height(), huge = ~(UINTN)0;
	pixel px = rgb(1, 2, 3);

	CHECK_STATUS(blt(&px, EfiGraphicsOutputBltOperationMax, 0, 0, 0, 0, 1, 1, 0),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(NULL, EfiBltVideoFill, 0, 0, 0, 0, 1, 1, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(NULL, EfiBltVideoToBltBuffer, 0, 0, 0, 0, 1, 1, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(NULL, EfiBltBufferToVideo, 0, 0, 0, 0, 1, 1, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(0, 0, 0, 1, px), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(0, 0, 1, 0, px), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(w - 1, 0, 2, 1, px), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(0, h, 1, 1, px), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(huge, 0, 2, 1, px), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(0, 0, huge, 1, px), EFI_INVALID_PARAMETER);
	CHECK_STATUS(fill(w - 1, h - 1, 1, 1, px), EFI_SUCCESS);
	CHECK_STATUS(blt(scratch, EfiBltVideoToBltBuffer, w - 1, 0, 0, 0, 2, 1, 0),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(scratch, EfiBltVideoToBltBuffer, 0, 0, 3, 0, 2, 1, 16),
		     EFI_INVALID_PARAMETER); /* 3 + 2 pixels in a 4-pixel row */
	CHECK_STATUS(blt(scratch, EfiBltBufferToVideo, 0, 0, 0, 0, 2, 1, 4),
		     EFI_INVALID_PARAMETER); /* Delta shorter than the row */
	CHECK_STATUS(blt(scratch, EfiBltBufferToVideo, 1, 0, 0, 0, 4, 1, 16),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(scratch, EfiBltBufferToVideo, 0, huge / 2, 0, 0, 1, 1, 16),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(scratch, EfiBltBufferToVideo, 0, 0, 0, h - 1, 1, 2, 0),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(NULL, EfiBltVideoToVideo, 0, 0, w - 1, 0, 2, 1, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(NULL, EfiBltVideoToVideo, 0, h - 1, 0, 0, 1, 2, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(blt(NULL, EfiBltVideoToVideo, 0, 0, 1, 1, 1, 1, 0), EFI_SUCCESS);
}

static pixel fill_color_at(UINTN x, UINTN y)
{
	bool inside = x >= 1 && x <= 50 && y >= 1 && y <= 40;

	return inside ? rgb(0x12, 0x34, 0x56) : rgb(0, 0, 0);
}

static void gop_fill_and_read(void)
{
	const pixel marker = rgb(0xee, 0xee, 0xee);
	UINTN bad = 0;

	gop->SetMode(gop, 0);
	CHECK_STATUS(fill(10, 10, 50, 40, rgb(0x12, 0x34, 0x56)), EFI_SUCCESS);
	if (read_back(9, 9, 52, 42))
		CHECK_EQ(mismatches(52, 42, fill_color_at), 0);
	/* A sub-rectangle of a wider buffer: Delta is its row length in bytes. */
	for (UINTN i = 0; i < 100 * 20; i++)
		scratch[i] = marker;
	CHECK_STATUS(blt(scratch, EfiBltVideoToBltBuffer, 10, 10, 5, 3, 20, 10, 100 * PIXEL_SIZE),
		     EFI_SUCCESS);
	for (UINTN y = 0; y < 20; y++)
		for (UINTN x = 0; x < 100; x++) {
			bool inside = x >= 5 && x < 25 && y >= 3 && y < 13;
			bad += !same(scratch[y * 100 + x], inside ? rgb(0x12, 0x34, 0x56) : marker);
		}
	CHECK_EQ(bad, 0);
}

static pixel gradient_part_at(UINTN x, UINTN y)
{
	return gradient_at(x + 8, y + 4);
}

static void gop_buffer_to_video(void)
{
	make_gradient();
	CHECK_STATUS(blt(gradient, EfiBltBufferToVideo, 0, 0, 100, 100, GRAD, GRAD, 0),
		     EFI_SUCCESS);
	if (read_back(100, 100, GRAD, GRAD))
		CHECK_EQ(mismatches(GRAD, GRAD, gradient_at), 0);
	CHECK_STATUS(blt(gradient, EfiBltBufferToVideo, 8, 4, 300, 100, 16, 8, GRAD * PIXEL_SIZE),
		     EFI_SUCCESS);
	if (read_back(300, 100, 16, 8))
		CHECK_EQ(mismatches(16, 8, gradient_part_at), 0);
}

/* Overlapping copies in both directions keep the source picture intact. */
static void gop_video_to_video(void)
{
	CHECK_STATUS(blt(gradient, EfiBltBufferToVideo, 0, 0, 100, 100, GRAD, GRAD, 0),
		     EFI_SUCCESS);
	CHECK_STATUS(blt(NULL, EfiBltVideoToVideo, 100, 100, 110, 105, GRAD, GRAD, 0), EFI_SUCCESS);
	if (read_back(110, 105, GRAD, GRAD))
		CHECK_EQ(mismatches(GRAD, GRAD, gradient_at), 0);
	CHECK_STATUS(blt(gradient, EfiBltBufferToVideo, 0, 0, 300, 300, GRAD, GRAD, 0),
		     EFI_SUCCESS);
	CHECK_STATUS(blt(NULL, EfiBltVideoToVideo, 300, 300, 290, 297, GRAD, GRAD, 0), EFI_SUCCESS);
	if (read_back(290, 297, GRAD, GRAD))
		CHECK_EQ(mismatches(GRAD, GRAD, gradient_at), 0);
}

static pixel framebuffer_color_at(UINTN x, UINTN y)
{
	return rgb(0xab, 0xcd, 0xef);
}

/* The framebuffer is the picture: a write to it is what Blt reads back. */
static void gop_framebuffer(void)
{
	UINT32 *fb = (UINT32 *)(UINTN)gop->Mode->FrameBufferBase;
	UINT32 stride = gop->Mode->Info->PixelsPerScanLine;

	for (UINTN y = 0; y < 8; y++)
		for (UINTN x = 0; x < 8; x++)
			fb[(20 + y) * stride + 400 + x] = 0x00abcdef;
	if (read_back(400, 20, 8, 8))
		CHECK_EQ(mismatches(8, 8, framebuffer_color_at), 0);
}

/* The picture test_console.py looks for in the screenshot. */
static void gop_picture(void)
{
	UINT32 *fb;
	UINT32 stride;

	CHECK_STATUS(gop->SetMode(gop, 0), EFI_SUCCESS);
	fb = (UINT32 *)(UINTN)gop->Mode->FrameBufferBase;
	stride = gop->Mode->Info->PixelsPerScanLine;
	fill(0, 0, width(), height(), rgb(0x10, 0x20, 0x40));
	fill(0, 0, 32, 32, rgb(255, 0, 0));
	fill(32, 0, 32, 32, rgb(0, 255, 0));
	fill(64, 0, 32, 32, rgb(0, 0, 255));
	fill(96, 0, 32, 32, rgb(255, 255, 255));
	for (UINTN x = 0; x < 256; x++)
		scratch[x] = rgb((UINT8)x, (UINT8)(255 - x), 0x80);
	for (UINTN y = 0; y < 16; y++)
		blt(scratch, EfiBltBufferToVideo, 0, 0, 0, 64 + y, 256, 1, 0);
	blt(NULL, EfiBltVideoToVideo, 0, 0, 300, 300, 32, 32, 0);
	for (UINTN y = 0; y < 8; y++)
		for (UINTN x = 0; x < 8; x++)
			fb[(10 + y) * stride + 400 + x] = 0x00010203;
	fill(width() - 1, height() - 1, 1, 1, rgb(255, 255, 0));
	app_print("picture %ux%u\n", width(), height());
}

static void gop_path(void)
{
	EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (!CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, &gop_guid, NULL, &count, &handles),
			  EFI_SUCCESS))
		return;
	CHECK_EQ(count, 1);
	ct_print_path("gop path", handles[0]);
	app_bs->FreePool(handles);
}

EFI_GRAPHICS_OUTPUT_PROTOCOL *ct_gop_checks(void)
{
	EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;

	if (!CHECK_STATUS(app_bs->LocateProtocol(&gop_guid, NULL, (void **)&gop), EFI_SUCCESS))
		return NULL;
	gop_path();
	gop_modes();
	gop_set_mode();
	gop_blt_errors();
	gop_fill_and_read();
	gop_buffer_to_video();
	gop_video_to_video();
	gop_framebuffer();
	return gop;
}

void ct_gop(void)
{
	if (ct_gop_checks())
		gop_picture();
}
