/* The virtio GPU device's 2D command set (virtio 1.2, section 5.7): the control queue's
 * commands and responses Ember uses, little-endian as x86 is. */
#ifndef DRIVERS_VIRTIO_GPU_SPEC_H
#define DRIVERS_VIRTIO_GPU_SPEC_H

#include <efi/types.h>

#define VIRTIO_ID_GPU 16
#define VIRTIO_GPU_CONTROL_QUEUE 0
#define VIRTIO_GPU_MAX_SCANOUTS 16

enum virtio_gpu_ctrl_type {
	VIRTIO_GPU_CMD_GET_DISPLAY_INFO = 0x0100,
	VIRTIO_GPU_CMD_RESOURCE_CREATE_2D = 0x0101,
	VIRTIO_GPU_CMD_RESOURCE_UNREF = 0x0102,
	VIRTIO_GPU_CMD_SET_SCANOUT = 0x0103,
	VIRTIO_GPU_CMD_RESOURCE_FLUSH = 0x0104,
	VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D = 0x0105,
	VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING = 0x0106,
	VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING = 0x0107,
	VIRTIO_GPU_RESP_OK_NODATA = 0x1100,
	VIRTIO_GPU_RESP_OK_DISPLAY_INFO = 0x1101,
	VIRTIO_GPU_RESP_ERR_UNSPEC = 0x1200,
};

/* Byte order B, G, R, unused: EFI_GRAPHICS_OUTPUT_BLT_PIXEL's. */
#define VIRTIO_GPU_FORMAT_B8G8R8X8_UNORM 2

struct virtio_gpu_ctrl_hdr {
	UINT32 type;
	UINT32 flags;
	UINT64 fence_id;
	UINT32 ctx_id;
	UINT8 ring_idx;
	UINT8 padding[3];
};
_Static_assert(sizeof(struct virtio_gpu_ctrl_hdr) == 24, "virtio_gpu_ctrl_hdr layout");

struct virtio_gpu_rect {
	UINT32 x, y, width, height;
};

struct virtio_gpu_display_one {
	struct virtio_gpu_rect r;
	UINT32 enabled;
	UINT32 flags;
};

struct virtio_gpu_resp_display_info {
	struct virtio_gpu_ctrl_hdr hdr;
	struct virtio_gpu_display_one pmodes[VIRTIO_GPU_MAX_SCANOUTS];
};
_Static_assert(sizeof(struct virtio_gpu_resp_display_info) == 408, "display info layout");

struct virtio_gpu_resource_create_2d {
	struct virtio_gpu_ctrl_hdr hdr;
	UINT32 resource_id;
	UINT32 format;
	UINT32 width;
	UINT32 height;
};

/* RESOURCE_UNREF and RESOURCE_DETACH_BACKING. */
struct virtio_gpu_resource_id {
	struct virtio_gpu_ctrl_hdr hdr;
	UINT32 resource_id;
	UINT32 padding;
};

struct virtio_gpu_mem_entry {
	UINT64 addr;
	UINT32 length;
	UINT32 padding;
};

/* RESOURCE_ATTACH_BACKING with its one entry: the backing is contiguous. */
struct virtio_gpu_resource_attach_backing {
	struct virtio_gpu_ctrl_hdr hdr;
	UINT32 resource_id;
	UINT32 nr_entries;
	struct virtio_gpu_mem_entry entry;
};
_Static_assert(sizeof(struct virtio_gpu_resource_attach_backing) == 48, "attach layout");

struct virtio_gpu_set_scanout {
	struct virtio_gpu_ctrl_hdr hdr;
	struct virtio_gpu_rect r;
	UINT32 scanout_id;
	UINT32 resource_id;
};
_Static_assert(sizeof(struct virtio_gpu_set_scanout) == 48, "set_scanout layout");

struct virtio_gpu_resource_flush {
	struct virtio_gpu_ctrl_hdr hdr;
	struct virtio_gpu_rect r;
	UINT32 resource_id;
	UINT32 padding;
};

struct virtio_gpu_transfer_to_host_2d {
	struct virtio_gpu_ctrl_hdr hdr;
	struct virtio_gpu_rect r;
	UINT64 offset; /* of the rectangle's first pixel in the backing */
	UINT32 resource_id;
	UINT32 padding;
};
_Static_assert(sizeof(struct virtio_gpu_transfer_to_host_2d) == 56, "transfer layout");

#endif
