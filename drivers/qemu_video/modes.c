/* The resolutions the driver offers: a fixed list, less those the VRAM cannot hold. */
#include "qemu_video.h"
#include <ember/lib/util.h>

#define BYTES_PER_PIXEL 4

/* Mode 0 comes first and is set at start: 1024x768, what OVMF shows and what programs
 * written against it expect. Every width is a multiple of 8, as QEMU's VGA requires. */
static const struct qv_size qv_sizes[] = {
    {1024, 768},  {640, 480},	{800, 600},   {1280, 720},  {1280, 800},  {1280, 960},
    {1280, 1024}, {1360, 768},	{1440, 900},  {1600, 900},  {1600, 1200}, {1680, 1050},
    {1920, 1080}, {1920, 1200}, {2560, 1440}, {2560, 1600}, {3840, 2160},
};

_Static_assert(ARRAY_SIZE(qv_sizes) <= QV_MAX_MODES, "mode table size");

UINT32 qv_modes_build(struct qemu_video *qv)
{
	qv->mode_count = 0;
	for (size_t i = 0; i < ARRAY_SIZE(qv_sizes); i++) {
		const struct qv_size *s = &qv_sizes[i];

		if ((UINT64)s->width * s->height * BYTES_PER_PIXEL <= qv->vram_size)
			qv->modes[qv->mode_count++] = *s;
	}
	return qv->mode_count;
}

void qv_mode_info(const struct qemu_video *qv, UINT32 n, EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	*info = (EFI_GRAPHICS_OUTPUT_MODE_INFORMATION){
	    .Version = 0,
	    .HorizontalResolution = qv->modes[n].width,
	    .VerticalResolution = qv->modes[n].height,
	    .PixelFormat = PixelBlueGreenRedReserved8BitPerColor,
	    .PixelsPerScanLine = qv->modes[n].width,
	};
}
