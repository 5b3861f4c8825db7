/* The hosted GOP's framebuffer, for the screenshot writer. */
#ifndef EMBER_HOSTED_GOP_H
#define EMBER_HOSTED_GOP_H

#include <stdbool.h>
#include <efi/protocol/graphics_output.h>

/* The visible picture of the current mode: width x height pixels, stride pixels a row. */
struct gop_frame {
	const EFI_GRAPHICS_OUTPUT_BLT_PIXEL *pixels;
	UINT32 width, height, stride;
};

/* The current frame; false when hosted_gop_init has not run. */
bool gop_current_frame(struct gop_frame *frame);

#endif
