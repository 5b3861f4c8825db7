/* The QEMU display under the GOP front end (drivers/gop_front): its modes, and SetMode
 * programming the DISPI registers; Blt draws straight into the framebuffer (BAR0). */
#include "qemu_video.h"
#include <ember/lib/util.h>

static struct qemu_video *qv_of(struct gop_front *front)
{
	return container_of(front, struct qemu_video, front);
}

static EFI_STATUS qv_query_mode(struct gop_front *front, UINT32 n,
				EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	qv_mode_info(qv_of(front), n, info);
	return EFI_SUCCESS;
}

static EFI_STATUS qv_set_mode(struct gop_front *front, UINT32 n, struct gop_front_fb *fb)
{
	struct qemu_video *qv = qv_of(front);

	fb->pixels = (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)(uintptr_t)qv->fb_base;
	return qv_hw_set_mode(qv, qv->modes[n].width, qv->modes[n].height);
}

static const struct gop_front_ops qv_gop_ops = {
    .query_mode = qv_query_mode,
    .set_mode = qv_set_mode,
};

void qv_gop_init(struct qemu_video *qv)
{
	gop_front_init(&qv->front, &qv_gop_ops, qv->mode_count);
}
