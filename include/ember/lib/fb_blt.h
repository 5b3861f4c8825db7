/* Graphics Output Blt (UEFI 2.10, 12.9.2) over a linear framebuffer of 32-bit pixels in the
 * EFI_GRAPHICS_OUTPUT_BLT_PIXEL layout (PixelBlueGreenRedReserved8BitPerColor). Pure code:
 * GOP drivers call it with their current mode's geometry, and host tests call it on arrays. */
#ifndef EMBER_FB_BLT_H
#define EMBER_FB_BLT_H

#include <efi/protocol/graphics_output.h>

/* The visible picture of a mode: width x height pixels, rows stride pixels apart. */
struct fb_surface {
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *pixels;
	UINT32 width, height, stride;
};

/* Performs one Blt with GOP's arguments and rules: all four operations, Delta 0 meaning
 * rows of Width pixels, overlapping VideoToVideo copies. EFI_INVALID_PARAMETER for an
 * unknown operation, a zero Width or Height, a missing BltBuffer, or a rectangle outside
 * the screen or outside the buffer's rows (checked without overflow), before any pixel
 * changes. */
EFI_STATUS fb_blt(const struct fb_surface *fb, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
		  EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx, UINTN dy,
		  UINTN width, UINTN height, UINTN delta);

/* Sets every visible pixel to black. */
void fb_clear(const struct fb_surface *fb);

#endif
