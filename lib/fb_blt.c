/* Graphics Output Blt over a linear 32-bit framebuffer (UEFI 2.10, 12.9.2). */
#include <ember/lib/fb_blt.h>
#include <ember/lib/str.h>

#define PIXEL_SIZE sizeof(EFI_GRAPHICS_OUTPUT_BLT_PIXEL)

/* The operation's arguments, Delta already resolved. */
struct blt_args {
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer;
	UINTN sx, sy, dx, dy, w, h, delta;
};

/* The rectangle lies on the screen; no sum may overflow. */
static bool on_screen(const struct fb_surface *fb, UINTN x, UINTN y, UINTN w, UINTN h)
{
	return x <= fb->width && w <= fb->width - x && y <= fb->height && h <= fb->height - y;
}

/* The rectangle lies in the caller's buffer: each row, delta bytes long, holds x + w
 * pixels, and the offset past the last row is representable. */
static bool in_buffer(UINTN x, UINTN y, UINTN w, UINTN h, UINTN delta)
{
	UINTN per_row = delta / PIXEL_SIZE, rows, end;

	return x <= per_row && w <= per_row - x && !add_overflows(y, h, &rows) &&
	       !mul_overflows(rows, delta, &end) && end <= INT64_MAX;
}

static EFI_GRAPHICS_OUTPUT_BLT_PIXEL *screen_at(const struct fb_surface *fb, UINTN x, UINTN y)
{
	return fb->pixels + y * fb->stride + x;
}

static EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer_at(const struct blt_args *a, UINTN x, UINTN y)
{
	return (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)((UINT8 *)a->buffer + y * a->delta) + x;
}

static void fill_row(EFI_GRAPHICS_OUTPUT_BLT_PIXEL *row, UINTN count,
		     EFI_GRAPHICS_OUTPUT_BLT_PIXEL color)
{
	for (UINTN x = 0; x < count; x++)
		row[x] = color;
}

static EFI_STATUS blt_fill(const struct fb_surface *fb, const struct blt_args *a)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL color = a->buffer[0];

	if (!on_screen(fb, a->dx, a->dy, a->w, a->h))
		return EFI_INVALID_PARAMETER;
	for (UINTN y = 0; y < a->h; y++)
		fill_row(screen_at(fb, a->dx, a->dy + y), a->w, color);
	return EFI_SUCCESS;
}

static EFI_STATUS blt_video_to_buffer(const struct fb_surface *fb, const struct blt_args *a)
{
	if (!on_screen(fb, a->sx, a->sy, a->w, a->h) ||
	    !in_buffer(a->dx, a->dy, a->w, a->h, a->delta))
		return EFI_INVALID_PARAMETER;
	for (UINTN y = 0; y < a->h; y++)
		mem_copy(buffer_at(a, a->dx, a->dy + y), screen_at(fb, a->sx, a->sy + y),
			 a->w * PIXEL_SIZE);
	return EFI_SUCCESS;
}

static EFI_STATUS blt_buffer_to_video(const struct fb_surface *fb, const struct blt_args *a)
{
	if (!in_buffer(a->sx, a->sy, a->w, a->h, a->delta) ||
	    !on_screen(fb, a->dx, a->dy, a->w, a->h))
		return EFI_INVALID_PARAMETER;
	for (UINTN y = 0; y < a->h; y++)
		mem_copy(screen_at(fb, a->dx, a->dy + y), buffer_at(a, a->sx, a->sy + y),
			 a->w * PIXEL_SIZE);
	return EFI_SUCCESS;
}

/* Rows go in the order that reads each source row before it is overwritten; mem_copy
 * handles the overlap within a row. */
static EFI_STATUS blt_video_to_video(const struct fb_surface *fb, const struct blt_args *a)
{
	if (!on_screen(fb, a->sx, a->sy, a->w, a->h) || !on_screen(fb, a->dx, a->dy, a->w, a->h))
		return EFI_INVALID_PARAMETER;
	for (UINTN i = 0; i < a->h; i++) {
		UINTN y = a->dy > a->sy ? a->h - 1 - i : i;

		mem_copy(screen_at(fb, a->dx, a->dy + y), screen_at(fb, a->sx, a->sy + y),
			 a->w * PIXEL_SIZE);
	}
	return EFI_SUCCESS;
}

EFI_STATUS fb_blt(const struct fb_surface *fb, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
		  EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx, UINTN dy,
		  UINTN width, UINTN height, UINTN delta)
{
	static EFI_STATUS (*const ops[])(const struct fb_surface *, const struct blt_args *) = {
	    [EfiBltVideoFill] = blt_fill,
	    [EfiBltVideoToBltBuffer] = blt_video_to_buffer,
	    [EfiBltBufferToVideo] = blt_buffer_to_video,
	    [EfiBltVideoToVideo] = blt_video_to_video,
	};
	struct blt_args a = {buffer, sx, sy, dx, dy, width, height, delta};

	if ((UINT32)op >= ARRAY_SIZE(ops) || width == 0 || height == 0)
		return EFI_INVALID_PARAMETER;
	if (op != EfiBltVideoToVideo && !buffer)
		return EFI_INVALID_PARAMETER;
	/* Delta 0: the buffer is exactly the rectangle. Fill and VideoToVideo ignore Delta. */
	if (delta == 0 || op == EfiBltVideoFill || op == EfiBltVideoToVideo) {
		if (mul_overflows(width, PIXEL_SIZE, &a.delta))
			return EFI_INVALID_PARAMETER;
	}
	return ops[op](fb, &a);
}

void fb_clear(const struct fb_surface *fb)
{
	const EFI_GRAPHICS_OUTPUT_BLT_PIXEL black = {0, 0, 0, 0};

	for (UINT32 y = 0; y < fb->height; y++)
		fill_row(screen_at(fb, 0, y), fb->width, black);
}
