/* ember-run --screenshot: the GOP's current picture as an 8-bit RGB PNG, through libpng. */
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#include <ember/core/core.h>
#include "gop.h"
#include "hosted.h"

/* One framebuffer row (blue, green, red, reserved) as PNG's red, green, blue. */
static void row_to_rgb(const EFI_GRAPHICS_OUTPUT_BLT_PIXEL *src, UINT32 width, png_byte *rgb)
{
	for (UINT32 x = 0; x < width; x++) {
		rgb[3 * x] = src[x].Red;
		rgb[3 * x + 1] = src[x].Green;
		rgb[3 * x + 2] = src[x].Blue;
	}
}

/* libpng reports errors by longjmp; everything it touches is set up before the setjmp. */
static bool png_write_frame(FILE *file, const struct gop_frame *f, png_byte *row)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	volatile bool ok = false;

	if (!info)
		goto out;
	if (setjmp(png_jmpbuf(png)))
		goto out;
	png_init_io(png, file);
	png_set_IHDR(png, info, f->width, f->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (UINT32 y = 0; y < f->height; y++) {
		row_to_rgb(f->pixels + (size_t)y * f->stride, f->width, row);
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	ok = true;
out:
	png_destroy_write_struct(&png, &info);
	return ok;
}

bool hosted_gop_screenshot(const char *path)
{
	struct gop_frame frame;
	png_byte *row;
	FILE *file;
	bool ok;
	EFI_TPL old;

	if (!gop_current_frame(&frame)) {
		errno = ENODEV;
		return false;
	}
	/* stdio and malloc: keep the timer's notify functions out meanwhile. */
	old = tpl_raise(TPL_NOTIFY);
	errno = 0;
	row = malloc((size_t)frame.width * 3);
	file = row ? fopen(path, "wb") : NULL;
	ok = file && png_write_frame(file, &frame, row);
	if (file && fclose(file) != 0)
		ok = false;
	if (!ok && errno == 0)
		errno = EIO; /* libpng said why on stderr */
	free(row);
	tpl_restore(old);
	return ok;
}
