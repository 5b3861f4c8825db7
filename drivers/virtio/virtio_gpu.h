/* The virtio GPU driver (virtio 1.2, 5.7) for virtio-gpu-pci: 2D commands on the control
 * queue, a GOP through the shared front end (drivers/gop_front) over a picture in guest
 * memory that is the backing of a host resource; each changed rectangle is transferred to
 * the host and flushed to the scanout. */
#ifndef DRIVERS_VIRTIO_GPU_H
#define DRIVERS_VIRTIO_GPU_H

#include <efi/protocol/device_path.h>
#include <ember/drivers/gop_front.h>
#include <ember/drivers/pci_driver.h>
#include "virtio_gpu_spec.h"
#include "virtio_pci.h"

#define VGPU_MAX_MODES 12
/* The largest scanout size taken from the device; beyond it the display info is refused. */
#define VGPU_MAX_DIMENSION 8192

struct vgpu_size {
	UINT32 width, height;
};

/* A host resource with its backing: the picture Blt draws in. */
struct vgpu_picture {
	UINT32 resource_id; /* 0: none */
	UINT32 width, height;
	UINTN pages;
	void *pixels;
	UINT64 dev_addr;
	void *mapping;
};

struct virtio_gpu {
	struct pci_driver_dev pci;
	struct virtio_pci vp;
	struct virtio_queue control;
	UINT8 *page; /* request at 0, response at VGPU_RESPONSE_AT */
	UINT64 page_addr;
	void *page_mapping;
	bool broken; /* a command timed out: the device was reset */
	UINT32 last_id;
	struct vgpu_picture shown;
	UINT32 mode_count;
	struct vgpu_size modes[VGPU_MAX_MODES];
	struct gop_front front; /* the GOP, on the child */
	EFI_HANDLE child;
	EFI_DEVICE_PATH_PROTOCOL *child_path;
	EFI_EVENT exit_event;
};

#define VGPU_RESPONSE_AT 2048

/* ---- virtio_gpu_parse.c: the device's answers (pure, fuzzed) ---- */

/* Checks an answer of len bytes the device wrote: at least want_len bytes (the size of the
 * expected response) and of type want_type. EFI_DEVICE_ERROR otherwise. */
EFI_STATUS vgpu_check_response(const void *response, UINT32 len, UINT32 want_type, UINT32 want_len);

/* The modes from a GET_DISPLAY_INFO answer (len bytes, checked): scanout 0's size first
 * when it is enabled and at most VGPU_MAX_DIMENSION square, else 1024x768; then the usual
 * smaller sizes that fit within it. Returns the count (at least 1, at most max). */
UINT32 vgpu_modes_build(const struct virtio_gpu_resp_display_info *info, UINT32 len,
			struct vgpu_size *modes, UINT32 max);

/* ---- virtio_gpu_cmd.c: commands on the control queue ---- */

/* Sends the request in g->page (req_len bytes) and waits for an answer of want_type, at
 * least resp_len bytes, at g->page + VGPU_RESPONSE_AT. */
EFI_STATUS vgpu_command(struct virtio_gpu *g, UINT32 req_len, UINT32 want_type, UINT32 resp_len);
/* Commands answered with OK_NODATA. */
EFI_STATUS vgpu_create_2d(struct virtio_gpu *g, const struct vgpu_picture *p);
EFI_STATUS vgpu_attach_backing(struct virtio_gpu *g, const struct vgpu_picture *p);
EFI_STATUS vgpu_set_scanout(struct virtio_gpu *g, UINT32 resource_id, UINT32 width, UINT32 height);
EFI_STATUS vgpu_resource_command(struct virtio_gpu *g, UINT32 type, UINT32 resource_id);
EFI_STATUS vgpu_transfer_and_flush(struct virtio_gpu *g, const struct virtio_gpu_rect *r);

/* ---- virtio_gpu_gop.c ---- */

/* Sets up the GOP front end over g's modes (no mode current yet). */
void vgpu_gop_init(struct virtio_gpu *g);
/* Takes the picture off the scanout and gives the resource and its memory back. */
void vgpu_picture_release(struct virtio_gpu *g, struct vgpu_picture *p);

#endif
