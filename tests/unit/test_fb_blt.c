/* lib/fb_blt.c: the GOP Blt engine, checked against a pixel-by-pixel model. */
#include <string.h>

#include <ember/lib/fb_blt.h>
#include <ember/lib/util.h>
#include "support/test.h"

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

#define W 40
#define H 30
#define STRIDE 48 /* wider than the picture: the columns past W must never change */

static pixel screen[H * STRIDE];
static const struct fb_surface fb = {screen, W, H, STRIDE};

static pixel px(UINT32 v)
{
	return (pixel){(UINT8)v, (UINT8)(v >> 8), (UINT8)(v >> 16), (UINT8)(v >> 24)};
}

static UINT32 val(pixel p)
{
	return p.Blue | (UINT32)p.Green << 8 | (UINT32)p.Red << 16 | (UINT32)p.Reserved << 24;
}

/* Every pixel of the screen (padding included) gets a value naming its position. */
static void pattern(void)
{
	for (UINT32 y = 0; y < H; y++)
		for (UINT32 x = 0; x < STRIDE; x++)
			screen[y * STRIDE + x] = px(y << 8 | x);
}

static UINT32 at(UINT32 x, UINT32 y)
{
	return val(screen[y * STRIDE + x]);
}

static bool inside(UINTN x, UINTN y, UINTN rx, UINTN ry, UINTN rw, UINTN rh)
{
	return x >= rx && x < rx + rw && y >= ry && y < ry + rh;
}

TEST(fb_blt_fill_touches_only_its_rectangle)
{
	pixel color = px(0x00abcdef);
	UINTN bad = 0;

	pattern();
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 99, 99, 3, 4, 10, 5, 12345),
		      EFI_SUCCESS);
	for (UINT32 y = 0; y < H; y++)
		for (UINT32 x = 0; x < STRIDE; x++)
			bad += at(x, y) != (inside(x, y, 3, 4, 10, 5) ? 0x00abcdef : (y << 8 | x));
	EXPECT_EQ(bad, 0);
}

TEST(fb_blt_rejects_bad_arguments_without_drawing)
{
	pixel buf[64], color = px(1);
	UINTN huge = ~(UINTN)0, bad = 0;

	pattern();
	EXPECT_STATUS(fb_blt(&fb, &color, EfiGraphicsOutputBltOperationMax, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, NULL, EfiBltVideoFill, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, NULL, EfiBltVideoToBltBuffer, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, NULL, EfiBltBufferToVideo, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, 0, 0, 0, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, 0, 0, 1, 0, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, W - 1, 0, 2, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, 0, H, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, huge, 0, 2, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, 0, huge, 1, 2, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, 0, 0, huge, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltVideoToBltBuffer, W - 1, 0, 0, 0, 2, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltBufferToVideo, 0, 0, 0, H - 1, 1, 2, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, NULL, EfiBltVideoToVideo, 0, 0, W - 1, 0, 2, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, NULL, EfiBltVideoToVideo, 0, H - 1, 0, 0, 1, 2, 0),
		      EFI_INVALID_PARAMETER);
	/* Buffer rectangles: x + w beyond a row of Delta bytes, a Delta shorter than one
	 * pixel, rows whose offset overflows. */
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltBufferToVideo, 3, 0, 0, 0, 2, 1, 16),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltBufferToVideo, 0, 0, 0, 0, 2, 1, 4),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltVideoToBltBuffer, 0, 0, 0, 0, 1, 1, 3),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltVideoToBltBuffer, 0, 0, 1, 0, 4, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltBufferToVideo, 0, huge / 2, 0, 0, 1, 1, 16),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltBufferToVideo, 0, huge, 0, 0, 1, 1, 16),
		      EFI_INVALID_PARAMETER);
	for (UINT32 y = 0; y < H; y++)
		for (UINT32 x = 0; x < STRIDE; x++)
			bad += at(x, y) != (y << 8 | x);
	EXPECT_EQ(bad, 0);
	EXPECT_STATUS(fb_blt(&fb, &color, EfiBltVideoFill, 0, 0, W - 1, H - 1, 1, 1, 0),
		      EFI_SUCCESS);
}

/* A 5x3 sub-rectangle at (2, 1) of a buffer 10 pixels wide, each way. */
TEST(fb_blt_buffer_delta_selects_a_sub_rectangle)
{
	pixel buf[10 * 6];
	UINTN bad = 0;

	for (UINT32 i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = px(0x10000 + i);
	pattern();
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltBufferToVideo, 2, 1, 7, 8, 5, 3, 10 * sizeof(pixel)),
		      EFI_SUCCESS);
	for (UINT32 y = 0; y < H; y++)
		for (UINT32 x = 0; x < STRIDE; x++) {
			UINT32 want = inside(x, y, 7, 8, 5, 3)
					  ? 0x10000 + (y - 8 + 1) * 10 + (x - 7 + 2)
					  : (y << 8 | x);
			bad += at(x, y) != want;
		}
	EXPECT_EQ(bad, 0);

	memset(buf, 0xee, sizeof(buf));
	EXPECT_STATUS(
	    fb_blt(&fb, buf, EfiBltVideoToBltBuffer, 20, 10, 3, 2, 5, 3, 10 * sizeof(pixel)),
	    EFI_SUCCESS);
	for (UINT32 y = 0; y < 6; y++)
		for (UINT32 x = 0; x < 10; x++) {
			UINT32 want = inside(x, y, 3, 2, 5, 3) ? ((y - 2 + 10) << 8 | (x - 3 + 20))
							       : 0xeeeeeeee;
			bad += val(buf[y * 10 + x]) != want;
		}
	EXPECT_EQ(bad, 0);
}

TEST(fb_blt_delta_zero_means_packed_rows)
{
	pixel buf[4 * 3];

	pattern();
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltVideoToBltBuffer, 5, 6, 0, 0, 4, 3, 0), EFI_SUCCESS);
	EXPECT_EQ(val(buf[0]), 6 << 8 | 5);
	EXPECT_EQ(val(buf[11]), 8 << 8 | 8);
	EXPECT_STATUS(fb_blt(&fb, buf, EfiBltBufferToVideo, 0, 0, 30, 20, 4, 3, 0), EFI_SUCCESS);
	EXPECT_EQ(at(30, 20), 6 << 8 | 5);
	EXPECT_EQ(at(33, 22), 8 << 8 | 8);
	EXPECT_EQ(at(34, 22), 22 << 8 | 34);
}

/* Overlapping copies, in every direction, equal a copy through a separate buffer. */
static void check_video_copy(UINTN sx, UINTN sy, UINTN dx, UINTN dy, UINTN w, UINTN h)
{
	UINTN bad = 0;

	pattern();
	EXPECT_STATUS(fb_blt(&fb, NULL, EfiBltVideoToVideo, sx, sy, dx, dy, w, h, 0), EFI_SUCCESS);
	for (UINT32 y = 0; y < H; y++)
		for (UINT32 x = 0; x < STRIDE; x++) {
			UINT32 want = inside(x, y, dx, dy, w, h)
					  ? ((UINT32)(y - dy + sy) << 8 | (UINT32)(x - dx + sx))
					  : (y << 8 | x);
			bad += at(x, y) != want;
		}
	EXPECT_EQ(bad, 0);
}

TEST(fb_blt_video_to_video_handles_overlap)
{
	check_video_copy(5, 5, 8, 9, 20, 15);	/* down and right */
	check_video_copy(8, 9, 5, 5, 20, 15);	/* up and left */
	check_video_copy(5, 9, 8, 5, 20, 15);	/* up and right */
	check_video_copy(8, 5, 5, 9, 20, 15);	/* down and left */
	check_video_copy(0, 1, 0, 0, W, H - 1); /* a console scrolling one line */
	check_video_copy(0, 0, 0, 0, W, H);
	check_video_copy(1, 2, 30, 20, 10, 10); /* disjoint */
}

/* What SetMode's clear does (drivers/gop_front): the row padding past W stays. */
TEST(fb_blt_full_screen_fill_blackens_only_the_picture)
{
	pixel black = px(0);
	UINTN bad = 0;

	pattern();
	EXPECT_STATUS(fb_blt(&fb, &black, EfiBltVideoFill, 0, 0, 0, 0, W, H, 0), EFI_SUCCESS);
	for (UINT32 y = 0; y < H; y++)
		for (UINT32 x = 0; x < STRIDE; x++)
			bad += at(x, y) != (x < W ? 0 : (y << 8 | x));
	EXPECT_EQ(bad, 0);
}
