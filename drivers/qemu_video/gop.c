/* EFI_GRAPHICS_OUTPUT_PROTOCOL (UEFI 2.10, 12.9) on a QEMU display: QueryMode, SetMode and
 * Blt, drawing straight into the framebuffer (BAR0). */
#include "qemu_video.h"
#include <ember/core/core.h>
#include <ember/lib/fb_blt.h>

/* The device behind a caller's GOP pointer; NULL for anything else. */
static struct qemu_video *qv_from_gop(EFI_GRAPHICS_OUTPUT_PROTOCOL *this)
{
	struct qemu_video *qv;

	if (!this)
		return NULL;
	qv = container_of(this, struct qemu_video, gop);
	if (!mem_is_allocated(qv, sizeof(*qv)) || qv->signature != QV_SIGNATURE)
		return NULL;
	return qv;
}

static void qv_surface(const struct qemu_video *qv, struct fb_surface *fb)
{
	fb->pixels = (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)(uintptr_t)qv->fb_base;
	fb->width = qv->info.HorizontalResolution;
	fb->height = qv->info.VerticalResolution;
	fb->stride = qv->info.PixelsPerScanLine;
}

EFI_STATUS qv_gop_set_mode(struct qemu_video *qv, UINT32 n)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info;
	struct fb_surface fb;
	EFI_STATUS status;

	qv_mode_info(qv, n, &info);
	status = qv_hw_set_mode(qv, info.HorizontalResolution, info.VerticalResolution);
	if (EFI_ERROR(status))
		return status;
	qv->info = info;
	qv->gop_mode.Mode = n;
	qv->gop_mode.FrameBufferSize = (UINTN)info.PixelsPerScanLine * info.VerticalResolution *
				       sizeof(EFI_GRAPHICS_OUTPUT_BLT_PIXEL);
	qv_surface(qv, &fb);
	fb_clear(&fb);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI qv_query_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode,
				       UINTN *size_of_info,
				       EFI_GRAPHICS_OUTPUT_MODE_INFORMATION **info)
{
	struct qemu_video *qv = qv_from_gop(this);
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *copy;

	if (!qv || !size_of_info || !info || mode >= qv->mode_count)
		return EFI_INVALID_PARAMETER;
	/* The caller frees it with FreePool. */
	copy = pool_alloc_typed(EfiBootServicesData, sizeof(*copy));
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	qv_mode_info(qv, mode, copy);
	*size_of_info = sizeof(*copy);
	*info = copy;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI qv_set_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode)
{
	struct qemu_video *qv = qv_from_gop(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!qv)
		return EFI_INVALID_PARAMETER;
	if (mode >= qv->mode_count)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	status = qv_gop_set_mode(qv, mode);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI qv_blt(EFI_GRAPHICS_OUTPUT_PROTOCOL *this,
				EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
				EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx,
				UINTN dy, UINTN width, UINTN height, UINTN delta)
{
	struct qemu_video *qv = qv_from_gop(this);
	struct fb_surface fb;
	EFI_STATUS status;
	EFI_TPL old;

	if (!qv)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	qv_surface(qv, &fb);
	status = fb_blt(&fb, buffer, op, sx, sy, dx, dy, width, height, delta);
	tpl_restore(old);
	return status;
}

void qv_gop_init(struct qemu_video *qv)
{
	qv->gop = (EFI_GRAPHICS_OUTPUT_PROTOCOL){qv_query_mode, qv_set_mode, qv_blt, &qv->gop_mode};
	qv->gop_mode = (EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE){
	    .MaxMode = qv->mode_count,
	    .Mode = 0,
	    .Info = &qv->info,
	    .SizeOfInfo = sizeof(qv->info),
	    .FrameBufferBase = qv->fb_base,
	};
}
