/* The fake virtio GPU's control queue (fake_virtio_gpu.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_virtio_gpu.h"
#include "../../drivers/virtio/virtio_gpu_spec.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <ember/lib/util.h>

#define REQUEST_MAX 256

struct fake_virtio *fake_virtio_gpu_create(UINT32 width, UINT32 height)
{
	struct fake_virtio *d = fake_virtio_create(FAKE_VIRTIO_MODERN, VIRTIO_ID_GPU);

	if (!d)
		return NULL;
	d->gpu = calloc(1, sizeof(*d->gpu));
	if (!d->gpu) {
		fake_virtio_destroy(d);
		return NULL;
	}
	d->gpu->display_width = width;
	d->gpu->display_height = height;
	d->num_queues = 2; /* control and cursor */
	d->queues[0].max = d->queues[1].max = 64;
	fake_pci_io_config_set(d->pci, 0x0A, 2, 0x0380);
	return d;
}

void fake_virtio_gpu_reset(struct fake_virtio_gpu *gpu)
{
	if (!gpu)
		return;
	gpu->resources_at_reset = fake_gpu_resources(gpu);
	for (int i = 0; i < FAKE_GPU_RESOURCES; i++) {
		free(gpu->res[i].pixels);
		gpu->res[i] = (struct fake_gpu_resource){0};
	}
	free(gpu->screen);
	gpu->screen = NULL;
	gpu->scanout = gpu->screen_w = gpu->screen_h = 0;
}

void fake_virtio_gpu_free(struct fake_virtio_gpu *gpu)
{
	if (!gpu)
		return;
	for (int i = 0; i < FAKE_GPU_RESOURCES; i++)
		free(gpu->res[i].pixels);
	free(gpu->screen);
	free(gpu);
}

struct fake_gpu_resource *fake_gpu_resource(struct fake_virtio_gpu *gpu, UINT32 id)
{
	for (int i = 0; id && i < FAKE_GPU_RESOURCES; i++)
		if (gpu->res[i].id == id)
			return &gpu->res[i];
	return NULL;
}

UINTN fake_gpu_resources(struct fake_virtio_gpu *gpu)
{
	UINTN n = 0;

	for (int i = 0; i < FAKE_GPU_RESOURCES; i++)
		n += gpu->res[i].id != 0;
	return n;
}

/* A rectangle inside a resource. */
static bool inside(const struct fake_gpu_resource *r, const struct virtio_gpu_rect *rect)
{
	return rect->width && rect->height && (UINT64)rect->x + rect->width <= r->width &&
	       (UINT64)rect->y + rect->height <= r->height;
}

/* The resource a command names, which must exist (with its backing when asked). */
static struct fake_gpu_resource *named(struct fake_virtio *d, UINT32 id, bool backing)
{
	struct fake_gpu_resource *r = fake_gpu_resource(d->gpu, id);

	if (!r || (backing && !r->backing)) {
		fake_virtio_error(d, backing ? "resource without backing" : "unknown resource", id);
		return NULL;
	}
	return r;
}

static bool create_2d(struct fake_virtio *d, const struct virtio_gpu_resource_create_2d *c)
{
	struct fake_gpu_resource *slot = fake_gpu_resource(d->gpu, 0);

	for (int i = 0; !slot && i < FAKE_GPU_RESOURCES; i++)
		if (!d->gpu->res[i].id)
			slot = &d->gpu->res[i];
	if (!c->resource_id || fake_gpu_resource(d->gpu, c->resource_id) || !slot ||
	    c->format != VIRTIO_GPU_FORMAT_B8G8R8X8_UNORM || !c->width || !c->height) {
		fake_virtio_error(d, "bad RESOURCE_CREATE_2D", c->resource_id);
		return false;
	}
	*slot = (struct fake_gpu_resource){
	    c->resource_id, c->width, c->height, calloc((size_t)c->width * c->height, 4), 0, 0};
	return slot->pixels != NULL;
}

static bool attach(struct fake_virtio *d, const struct virtio_gpu_resource_attach_backing *a)
{
	struct fake_gpu_resource *r = named(d, a->resource_id, false);

	if (!r)
		return false;
	if (r->backing || a->nr_entries != 1 || a->entry.length < r->width * r->height * 4 ||
	    !fake_pci_io_dma(d->pci, a->entry.addr, a->entry.length, false)) {
		fake_virtio_error(d, "bad RESOURCE_ATTACH_BACKING", a->resource_id);
		return false;
	}
	r->backing = a->entry.addr;
	r->backing_len = a->entry.length;
	return true;
}

static bool set_scanout(struct fake_virtio *d, const struct virtio_gpu_set_scanout *s)
{
	struct fake_virtio_gpu *g = d->gpu;
	struct fake_gpu_resource *r = s->resource_id ? named(d, s->resource_id, true) : NULL;

	if (s->scanout_id != 0 || (s->resource_id && (!r || !inside(r, &s->r)))) {
		fake_virtio_error(d, "bad SET_SCANOUT", s->resource_id);
		return false;
	}
	g->scanout = s->resource_id;
	free(g->screen);
	g->screen = r ? calloc((size_t)s->r.width * s->r.height, 4) : NULL;
	g->screen_w = r ? s->r.width : 0;
	g->screen_h = r ? s->r.height : 0;
	return true;
}

/* Rows of the rectangle from the backing (row y of the rectangle at offset + y * stride,
 * as QEMU reads it) into the host's copy. */
static bool transfer(struct fake_virtio *d, const struct virtio_gpu_transfer_to_host_2d *t)
{
	struct fake_gpu_resource *r = named(d, t->resource_id, true);
	UINT32 stride;

	if (!r)
		return false;
	stride = r->width * 4;
	if (!inside(r, &t->r) || t->offset != (UINT64)t->r.y * stride + t->r.x * 4) {
		fake_virtio_error(d, "bad TRANSFER_TO_HOST_2D", t->resource_id);
		return false;
	}
	for (UINT32 y = 0; y < t->r.height; y++) {
		UINT8 *src = fake_pci_io_dma(d->pci, r->backing + t->offset + (UINT64)y * stride,
					     t->r.width * 4, false);
		if (!src)
			return false;
		memcpy(&r->pixels[(t->r.y + y) * r->width + t->r.x], src, t->r.width * 4);
	}
	d->gpu->transferred += (UINT64)t->r.width * t->r.height;
	return true;
}

static bool flush(struct fake_virtio *d, const struct virtio_gpu_resource_flush *f)
{
	struct fake_virtio_gpu *g = d->gpu;
	struct fake_gpu_resource *r = named(d, f->resource_id, false);

	if (!r || !inside(r, &f->r)) {
		fake_virtio_error(d, "bad RESOURCE_FLUSH", f->resource_id);
		return false;
	}
	if (f->resource_id != g->scanout || !g->screen)
		return true;
	for (UINT32 y = f->r.y; y < f->r.y + f->r.height && y < g->screen_h; y++)
		for (UINT32 x = f->r.x; x < f->r.x + f->r.width && x < g->screen_w; x++)
			g->screen[y * g->screen_w + x] = r->pixels[y * r->width + x];
	return true;
}

static bool resource_id_command(struct fake_virtio *d, UINT32 type,
				const struct virtio_gpu_resource_id *c)
{
	struct fake_gpu_resource *r = named(d, c->resource_id, type == 0x0107);

	if (!r)
		return false;
	if (type == VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING) {
		r->backing = 0;
		return true;
	}
	if (c->resource_id == d->gpu->scanout)
		fake_virtio_error(d, "unreferenced the resource the scanout shows", c->resource_id);
	free(r->pixels);
	*r = (struct fake_gpu_resource){0};
	return true;
}

static UINT32 display_info(struct fake_virtio *d, UINT8 *answer, UINT32 room)
{
	struct virtio_gpu_resp_display_info info;

	memset(&info, 0, sizeof(info));
	info.hdr.type = VIRTIO_GPU_RESP_OK_DISPLAY_INFO;
	info.pmodes[0].r =
	    (struct virtio_gpu_rect){0, 0, d->gpu->display_width, d->gpu->display_height};
	info.pmodes[0].enabled = !d->gpu->display_disabled;
	memcpy(answer, &info, MIN(room, (UINT32)sizeof(info)));
	return MIN(room, (UINT32)sizeof(info));
}

/* Executes one request; false when the device refuses it. */
static bool execute(struct fake_virtio *d, UINT32 type, const UINT8 *req, UINT32 len)
{
	static const UINT32 sizes[8] = {24, 40, 32, 48, 48, 56, 48, 32};

	if (type < 0x100 || type > 0x107 || len < sizes[type - 0x100]) {
		fake_virtio_error(d, "malformed virtio-gpu request", type);
		return false;
	}
	d->gpu->commands[type - 0x100]++;
	if (type == d->gpu->fail_type)
		return false;
	switch (type) {
	case VIRTIO_GPU_CMD_RESOURCE_CREATE_2D:
		return create_2d(d, (const void *)req);
	case VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING:
		return attach(d, (const void *)req);
	case VIRTIO_GPU_CMD_SET_SCANOUT:
		return set_scanout(d, (const void *)req);
	case VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D:
		return transfer(d, (const void *)req);
	case VIRTIO_GPU_CMD_RESOURCE_FLUSH:
		return flush(d, (const void *)req);
	case VIRTIO_GPU_CMD_RESOURCE_UNREF:
	case VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING:
		return resource_id_command(d, type, (const void *)req);
	}
	return true;
}

UINT32 fake_virtio_gpu_serve(struct fake_virtio *d, struct fake_virtio_buf *bufs, UINT16 count,
			     bool bad)
{
	_Alignas(8) UINT8 req[REQUEST_MAX];
	struct virtio_gpu_ctrl_hdr answer = {0};
	UINT32 len = 0, written;
	UINT16 i;

	for (i = 0; i < count && !bufs[i].writes; i++) {
		UINT32 n = MIN(bufs[i].len, REQUEST_MAX - len);
		memcpy(req + len, bufs[i].p, n);
		len += n;
	}
	if (bad || i == count || len < sizeof(answer)) {
		fake_virtio_error(d, "virtio-gpu chain without request or answer buffer", count);
		return 0;
	}
	answer.type = ((struct virtio_gpu_ctrl_hdr *)req)->type;
	if (answer.type == VIRTIO_GPU_CMD_GET_DISPLAY_INFO && d->gpu->fail_type != answer.type) {
		d->gpu->commands[0]++;
		written = display_info(d, bufs[i].p, bufs[i].len);
	} else {
		answer.type = execute(d, answer.type, req, len) ? VIRTIO_GPU_RESP_OK_NODATA
								: VIRTIO_GPU_RESP_ERR_UNSPEC;
		written = MIN(bufs[i].len, (UINT32)sizeof(answer));
		memcpy(bufs[i].p, &answer, written);
	}
	return d->gpu->short_answers && written >= 8 ? written - 8 : written;
}
