/* The virtio GPU under the GOP front end (drivers/gop_front). Each mode is a host resource
 * whose backing is a picture in guest memory: Blt draws there and the front end hands each
 * changed rectangle to flush, which transfers it to the host and flushes it to the scanout.
 * The modes are PixelBltOnly, as OVMF's VirtioGpuDxe has them: the device has no memory the
 * CPU can draw in, and a picture that is only shown once flushed is no linear framebuffer
 * to a program that writes it directly (after ExitBootServices nothing would flush it). */
#define LOG_PREFIX "virtio-gpu: "
#include "virtio_gpu.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/util.h>

#define PAGE_SIZE 4096

static struct virtio_gpu *vgpu_of(struct gop_front *front)
{
	return container_of(front, struct virtio_gpu, front);
}

static EFI_STATUS vgpu_query_mode(struct gop_front *front, UINT32 n,
				  EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	const struct vgpu_size *s = &vgpu_of(front)->modes[n];

	*info = (EFI_GRAPHICS_OUTPUT_MODE_INFORMATION){
	    .HorizontalResolution = s->width,
	    .VerticalResolution = s->height,
	    .PixelFormat = PixelBltOnly,
	    .PixelsPerScanLine = s->width,
	};
	return EFI_SUCCESS;
}

void vgpu_picture_release(struct virtio_gpu *g, struct vgpu_picture *p)
{
	if (!p->resource_id)
		return;
	vgpu_resource_command(g, VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING, p->resource_id);
	vgpu_resource_command(g, VIRTIO_GPU_CMD_RESOURCE_UNREF, p->resource_id);
	g->vp.dev.ops->free_shared(&g->vp.dev, p->pages, p->pixels, p->mapping);
	p->resource_id = 0;
}

/* A resource of the mode's size with its backing, not yet shown. */
static EFI_STATUS picture_create(struct virtio_gpu *g, const struct vgpu_size *s,
				 struct vgpu_picture *p)
{
	struct virtio_dev *dev = &g->vp.dev;
	EFI_STATUS status;

	*p = (struct vgpu_picture){0, s->width, s->height};
	p->pages = ((UINTN)s->width * s->height * 4 + PAGE_SIZE - 1) / PAGE_SIZE;
	status = dev->ops->alloc_shared(dev, p->pages, &p->pixels, &p->dev_addr, &p->mapping);
	if (EFI_ERROR(status)) {
		log_debug("%ux%u picture: %r\n", s->width, s->height, status);
		return status;
	}
	/* Resource IDs are never 0 (0 takes the scanout's resource away). */
	p->resource_id = ++g->last_id ? g->last_id : ++g->last_id;
	status = vgpu_create_2d(g, p);
	if (EFI_ERROR(status))
		goto err_free;
	status = vgpu_attach_backing(g, p);
	if (EFI_ERROR(status)) {
		vgpu_resource_command(g, VIRTIO_GPU_CMD_RESOURCE_UNREF, p->resource_id);
		goto err_free;
	}
	return EFI_SUCCESS;

err_free:
	log_debug("resource %ux%u: %r\n", s->width, s->height, status);
	dev->ops->free_shared(dev, p->pages, p->pixels, p->mapping);
	p->resource_id = 0;
	return status;
}

/* The new picture goes on the scanout first, then the old one is given back: on failure
 * the old mode is still shown. */
static EFI_STATUS vgpu_set_mode(struct gop_front *front, UINT32 n, struct gop_front_fb *fb)
{
	struct virtio_gpu *g = vgpu_of(front);
	struct vgpu_picture p;
	EFI_STATUS status = picture_create(g, &g->modes[n], &p);

	if (EFI_ERROR(status))
		return status;
	status = vgpu_set_scanout(g, p.resource_id, p.width, p.height);
	if (EFI_ERROR(status)) {
		log_debug("scanout to %ux%u: %r\n", p.width, p.height, status);
		vgpu_picture_release(g, &p);
		return status;
	}
	vgpu_picture_release(g, &g->shown);
	g->shown = p;
	fb->pixels = p.pixels;
	return EFI_SUCCESS;
}

static EFI_STATUS vgpu_flush(struct gop_front *front, UINTN x, UINTN y, UINTN width, UINTN height)
{
	struct virtio_gpu_rect r = {(UINT32)x, (UINT32)y, (UINT32)width, (UINT32)height};

	if (!width || !height)
		return EFI_SUCCESS;
	return vgpu_transfer_and_flush(vgpu_of(front), &r);
}

static const struct gop_front_ops vgpu_gop_ops = {
    .query_mode = vgpu_query_mode,
    .set_mode = vgpu_set_mode,
    .flush = vgpu_flush,
};

void vgpu_gop_init(struct virtio_gpu *g)
{
	gop_front_init(&g->front, &vgpu_gop_ops, g->mode_count);
}
