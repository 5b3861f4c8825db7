/* Graphics Output Blt (UEFI 2.10, 12.9.2) over a linear framebuffer of 32-bit pixels in the
 * EFI_GRAPHICS_OUTPUT_BLT_PIXEL layout (PixelBlueGreenRedReserved8BitPerColor). Pure code:
 * the GOP front end (drivers/gop_front) calls it with the current mode's geometry, and host
 * tests call it on arrays. */
#ifndef EMBER_FB_BLT_H
#define EMBER_FB_BLT_H

#include <efi/protocol/graphics_output.h>

/* The visible picture of a mode: width x height pixels, rows stride pixels apart. */
struct fb_surface {
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *pixels;
	UINT32 width, height, stride;
};

/* One Blt, with GOP's arguments. */
struct fb_blt_request {
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer;
	EFI_GRAPHICS_OUTPUT_BLT_OPERATION op;
	UINTN sx, sy, dx, dy, width, height;
	UINTN delta; /* bytes per row of buffer; fb_blt_check turns 0 into width's */
};

/* GOP's rules for a request on a screen of width x height pixels: EFI_INVALID_PARAMETER for
 * an unknown operation, a zero Width or Height, a missing BltBuffer, or a rectangle outside
 * the screen or outside the buffer's rows (checked without overflow). On success Delta is
 * resolved: 0 means rows of Width pixels, and Fill and VideoToVideo ignore it. */
EFI_STATUS fb_blt_check(UINT32 width, UINT32 height, struct fb_blt_request *r);

/* Performs a request fb_blt_check accepted for fb's geometry; overlapping VideoToVideo
 * copies come out as if the source had been read first. */
void fb_blt_draw(const struct fb_surface *fb, const struct fb_blt_request *r);

/* fb_blt_check then fb_blt_draw: nothing changes when the request is refused. */
EFI_STATUS fb_blt(const struct fb_surface *fb, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
		  EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx, UINTN dy,
		  UINTN width, UINTN height, UINTN delta);

#endif
