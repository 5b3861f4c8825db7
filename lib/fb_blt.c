/* Graphics Output Blt over a linear 32-bit framebuffer (UEFI 2.10, 12.9.2). */
#include <ember/lib/fb_blt.h>
#include <ember/lib/str.h>

#define PIXEL_SIZE sizeof(EFI_GRAPHICS_OUTPUT_BLT_PIXEL)

/* The rectangle lies on a width x height screen; no sum may overflow. */
static bool on_screen(UINT32 width, UINT32 height, UINTN x, UINTN y, UINTN w, UINTN h)
{
	return x <= width && w <= width - x && y <= height && h <= height - y;
}

/* The rectangle lies in the caller's buffer: each row, delta bytes long, holds x + w
 * pixels, and the offset past the last row is representable. */
static bool in_buffer(UINTN x, UINTN y, UINTN w, UINTN h, UINTN delta)
{
	UINTN per_row = delta / PIXEL_SIZE, rows, end;

	return x <= per_row && w <= per_row - x && !add_overflows(y, h, &rows) &&
	       !mul_overflows(rows, delta, &end) && end <= INT64_MAX;
}

/* Where each operation reads and writes: both rectangles must be valid. */
static bool rectangles_ok(UINT32 width, UINT32 height, const struct fb_blt_request *r)
{
	switch (r->op) {
	case EfiBltVideoFill:
		return on_screen(width, height, r->dx, r->dy, r->width, r->height);
	case EfiBltVideoToBltBuffer:
		return on_screen(width, height, r->sx, r->sy, r->width, r->height) &&
		       in_buffer(r->dx, r->dy, r->width, r->height, r->delta);
	case EfiBltBufferToVideo:
		return in_buffer(r->sx, r->sy, r->width, r->height, r->delta) &&
		       on_screen(width, height, r->dx, r->dy, r->width, r->height);
	default:
		return on_screen(width, height, r->sx, r->sy, r->width, r->height) &&
		       on_screen(width, height, r->dx, r->dy, r->width, r->height);
	}
}

EFI_STATUS fb_blt_check(UINT32 width, UINT32 height, struct fb_blt_request *r)
{
	if ((UINT32)r->op >= EfiGraphicsOutputBltOperationMax || r->width == 0 || r->height == 0)
		return EFI_INVALID_PARAMETER;
	if (r->op != EfiBltVideoToVideo && !r->buffer)
		return EFI_INVALID_PARAMETER;
	/* Delta 0: the buffer is exactly the rectangle. Fill and VideoToVideo ignore Delta. */
	if (r->delta == 0 || r->op == EfiBltVideoFill || r->op == EfiBltVideoToVideo) {
		if (mul_overflows(r->width, PIXEL_SIZE, &r->delta))
			return EFI_INVALID_PARAMETER;
	}
	return rectangles_ok(width, height, r) ? EFI_SUCCESS : EFI_INVALID_PARAMETER;
}

static EFI_GRAPHICS_OUTPUT_BLT_PIXEL *screen_at(const struct fb_surface *fb, UINTN x, UINTN y)
{
	return fb->pixels + y * fb->stride + x;
}

static EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer_at(const struct fb_blt_request *r, UINTN x, UINTN y)
{
	return (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)((UINT8 *)r->buffer + y * r->delta) + x;
}

static void fill_row(EFI_GRAPHICS_OUTPUT_BLT_PIXEL *row, UINTN count,
		     EFI_GRAPHICS_OUTPUT_BLT_PIXEL color)
{
	for (UINTN x = 0; x < count; x++)
		row[x] = color;
}

static void blt_fill(const struct fb_surface *fb, const struct fb_blt_request *r)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL color = r->buffer[0];

	for (UINTN y = 0; y < r->height; y++)
		fill_row(screen_at(fb, r->dx, r->dy + y), r->width, color);
}

static void blt_video_to_buffer(const struct fb_surface *fb, const struct fb_blt_request *r)
{
	for (UINTN y = 0; y < r->height; y++)
		mem_copy(buffer_at(r, r->dx, r->dy + y), screen_at(fb, r->sx, r->sy + y),
			 r->width * PIXEL_SIZE);
}

static void blt_buffer_to_video(const struct fb_surface *fb, const struct fb_blt_request *r)
{
	for (UINTN y = 0; y < r->height; y++)
		mem_copy(screen_at(fb, r->dx, r->dy + y), buffer_at(r, r->sx, r->sy + y),
			 r->width * PIXEL_SIZE);
}

/* Rows go in the order that reads each source row before it is overwritten; mem_copy
 * handles the overlap within a row. */
static void blt_video_to_video(const struct fb_surface *fb, const struct fb_blt_request *r)
{
	for (UINTN i = 0; i < r->height; i++) {
		UINTN y = r->dy > r->sy ? r->height - 1 - i : i;

		mem_copy(screen_at(fb, r->dx, r->dy + y), screen_at(fb, r->sx, r->sy + y),
			 r->width * PIXEL_SIZE);
	}
}

void fb_blt_draw(const struct fb_surface *fb, const struct fb_blt_request *r)
{
	static void (*const ops[])(const struct fb_surface *, const struct fb_blt_request *) = {
	    [EfiBltVideoFill] = blt_fill,
	    [EfiBltVideoToBltBuffer] = blt_video_to_buffer,
	    [EfiBltBufferToVideo] = blt_buffer_to_video,
	    [EfiBltVideoToVideo] = blt_video_to_video,
	};

	ops[r->op](fb, r);
}

EFI_STATUS fb_blt(const struct fb_surface *fb, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
		  EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx, UINTN dy,
		  UINTN width, UINTN height, UINTN delta)
{
	struct fb_blt_request r = {buffer, op, sx, sy, dx, dy, width, height, delta};
	EFI_STATUS status = fb_blt_check(fb->width, fb->height, &r);

	if (!EFI_ERROR(status))
		fb_blt_draw(fb, &r);
	return status;
}
