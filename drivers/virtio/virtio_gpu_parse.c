/* What the virtio GPU answers, checked before use (virtio 1.2, 5.7.6.7): the response header
 * and the display information that gives the modes. The device is outside data: a short or
 * mistyped answer is refused, and a display size out of range is not taken. */
#define LOG_PREFIX "virtio-gpu: "
#include "virtio_gpu.h"
#include <ember/core/log.h>
#include <ember/lib/util.h>

#define DEFAULT_WIDTH 1024
#define DEFAULT_HEIGHT 768

/* The sizes offered below the display's own, smallest first. */
static const struct vgpu_size usual_sizes[] = {
    {640, 480},	 {800, 600},  {1024, 768},  {1280, 720},  {1280, 800},	{1280, 1024},
    {1440, 900}, {1600, 900}, {1920, 1080}, {1920, 1200}, {2560, 1440},
};
_Static_assert(ARRAY_SIZE(usual_sizes) < VGPU_MAX_MODES, "mode table size");

EFI_STATUS vgpu_check_response(const void *response, UINT32 len, UINT32 want_type, UINT32 want_len)
{
	const struct virtio_gpu_ctrl_hdr *hdr = response;

	if (len < sizeof(*hdr) || len < want_len) {
		log_debug("answer of %u bytes, %u expected\n", len, want_len);
		return EFI_DEVICE_ERROR;
	}
	if (hdr->type != want_type) {
		log_debug("answer %#x, %#x expected\n", hdr->type, want_type);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

/* Scanout 0's size, when the answer gives a usable one. */
static bool preferred_size(const struct virtio_gpu_resp_display_info *info, UINT32 len,
			   struct vgpu_size *size)
{
	const struct virtio_gpu_display_one *one;

	if (!info || len < sizeof(*info))
		return false;
	one = &info->pmodes[0];
	if (!one->enabled || !one->r.width || !one->r.height || one->r.width > VGPU_MAX_DIMENSION ||
	    one->r.height > VGPU_MAX_DIMENSION) {
		log_debug("scanout 0: %ux%u, %s\n", one->r.width, one->r.height,
			  one->enabled ? "enabled" : "disabled");
		return false;
	}
	*size = (struct vgpu_size){one->r.width, one->r.height};
	return true;
}

UINT32 vgpu_modes_build(const struct virtio_gpu_resp_display_info *info, UINT32 len,
			struct vgpu_size *modes, UINT32 max)
{
	struct vgpu_size first = {DEFAULT_WIDTH, DEFAULT_HEIGHT};
	UINT32 count = 1;

	preferred_size(info, len, &first);
	modes[0] = first;
	for (size_t i = 0; i < ARRAY_SIZE(usual_sizes) && count < max; i++) {
		const struct vgpu_size *s = &usual_sizes[i];

		if (s->width <= first.width && s->height <= first.height &&
		    (s->width != first.width || s->height != first.height))
			modes[count++] = *s;
	}
	return count;
}
