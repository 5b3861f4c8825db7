/* The virtio GPU's control queue (virtio 1.2, 5.7.6): one command at a time, its request and
 * response in the driver's shared page, polled for until the device answers. A device that
 * does not answer within a second is reset and given up. */
#define LOG_PREFIX "virtio-gpu: "
#include "virtio_gpu.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define POLL_US 10
#define TIMEOUT_US 1000000ULL

/* Waits for the chain head to come back; the bytes the device wrote in *len. */
static EFI_STATUS wait_used(struct virtio_gpu *g, UINT16 head, UINT32 *len)
{
	for (UINT64 waited = 0; waited < TIMEOUT_US; waited += POLL_US) {
		UINT16 used_head;
		EFI_STATUS status = virtq_get_used(&g->control.vq, &used_head, len);

		if (status == EFI_SUCCESS)
			return used_head == head ? EFI_SUCCESS : EFI_DEVICE_ERROR;
		if (status != EFI_NOT_READY)
			return status;
		core_stall_us(POLL_US);
	}
	return EFI_TIMEOUT;
}

EFI_STATUS vgpu_command(struct virtio_gpu *g, UINT32 req_len, UINT32 want_type, UINT32 resp_len)
{
	struct virtq_buf bufs[2] = {
	    {g->page_addr, req_len, false},
	    {g->page_addr + VGPU_RESPONSE_AT, resp_len, true},
	};
	UINT8 *response = g->page + VGPU_RESPONSE_AT;
	UINT32 type = ((struct virtio_gpu_ctrl_hdr *)g->page)->type;
	EFI_STATUS status;
	UINT16 head;
	UINT32 len = 0;

	if (g->broken)
		return EFI_DEVICE_ERROR;
	/* A stale answer must not pass for this one's. */
	mem_set(response, 0, resp_len);
	status = virtq_add(&g->control.vq, bufs, 2, &head);
	if (EFI_ERROR(status))
		return EFI_DEVICE_ERROR;
	g->vp.dev.ops->notify(&g->vp.dev, VIRTIO_GPU_CONTROL_QUEUE);
	status = wait_used(g, head, &len);
	if (EFI_ERROR(status)) {
		log_warn("command %#x: %r; resetting the device\n", type, status);
		virtio_reset(&g->vp.dev);
		g->broken = true;
		return EFI_DEVICE_ERROR;
	}
	status = vgpu_check_response(response, len, want_type, resp_len);
	if (EFI_ERROR(status))
		log_debug("command %#x refused (answer %#x)\n", type,
			  ((struct virtio_gpu_ctrl_hdr *)response)->type);
	return status;
}

/* The request's header, the rest of it zeroed. */
static void *request(struct virtio_gpu *g, UINT32 type, UINTN size)
{
	mem_set(g->page, 0, size);
	((struct virtio_gpu_ctrl_hdr *)g->page)->type = type;
	return g->page;
}

static EFI_STATUS command_nodata(struct virtio_gpu *g, UINT32 req_len)
{
	return vgpu_command(g, req_len, VIRTIO_GPU_RESP_OK_NODATA,
			    sizeof(struct virtio_gpu_ctrl_hdr));
}

EFI_STATUS vgpu_create_2d(struct virtio_gpu *g, const struct vgpu_picture *p)
{
	struct virtio_gpu_resource_create_2d *r =
	    request(g, VIRTIO_GPU_CMD_RESOURCE_CREATE_2D, sizeof(*r));

	r->resource_id = p->resource_id;
	r->format = VIRTIO_GPU_FORMAT_B8G8R8X8_UNORM;
	r->width = p->width;
	r->height = p->height;
	return command_nodata(g, sizeof(*r));
}

EFI_STATUS vgpu_attach_backing(struct virtio_gpu *g, const struct vgpu_picture *p)
{
	struct virtio_gpu_resource_attach_backing *r =
	    request(g, VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING, sizeof(*r));

	r->resource_id = p->resource_id;
	r->nr_entries = 1;
	r->entry.addr = p->dev_addr;
	r->entry.length = p->width * p->height * 4;
	return command_nodata(g, sizeof(*r));
}

EFI_STATUS vgpu_set_scanout(struct virtio_gpu *g, UINT32 resource_id, UINT32 width, UINT32 height)
{
	struct virtio_gpu_set_scanout *r = request(g, VIRTIO_GPU_CMD_SET_SCANOUT, sizeof(*r));

	r->r = (struct virtio_gpu_rect){0, 0, width, height};
	r->scanout_id = 0;
	r->resource_id = resource_id;
	return command_nodata(g, sizeof(*r));
}

EFI_STATUS vgpu_resource_command(struct virtio_gpu *g, UINT32 type, UINT32 resource_id)
{
	struct virtio_gpu_resource_id *r = request(g, type, sizeof(*r));

	r->resource_id = resource_id;
	return command_nodata(g, sizeof(*r));
}

EFI_STATUS vgpu_transfer_and_flush(struct virtio_gpu *g, const struct virtio_gpu_rect *rect)
{
	struct virtio_gpu_transfer_to_host_2d *t;
	struct virtio_gpu_resource_flush *f;
	EFI_STATUS status;

	t = request(g, VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D, sizeof(*t));
	t->r = *rect;
	t->offset = ((UINT64)rect->y * g->shown.width + rect->x) * 4;
	t->resource_id = g->shown.resource_id;
	status = command_nodata(g, sizeof(*t));
	if (EFI_ERROR(status))
		return status;
	f = request(g, VIRTIO_GPU_CMD_RESOURCE_FLUSH, sizeof(*f));
	f->r = *rect;
	f->resource_id = g->shown.resource_id;
	return command_nodata(g, sizeof(*f));
}
