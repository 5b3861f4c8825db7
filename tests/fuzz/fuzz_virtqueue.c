/* Fuzzes the driver side of a split virtqueue (drivers/virtio/virtqueue.c) against a device
 * that writes whatever it likes into the used ring: the input is a script of driver requests
 * and device writes (used elements with any id and length, used->idx set to any value).
 * Whatever the device does, the driver must only ever return chains it handed out, and its
 * free list must stay a list of distinct descriptors that, with the chains in flight,
 * accounts for the whole table. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/virtio/virtqueue.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

struct script {
	const uint8_t *data;
	size_t size, at;
};

static uint32_t next(struct script *s, unsigned bytes)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | (s->at < s->size ? s->data[s->at++] : 0);
	return v;
}

static void check_accounting(const struct virtqueue *vq)
{
	uint8_t seen[64] = {0};
	uint16_t index = vq->free_head;
	uint32_t in_flight = 0;

	for (uint16_t i = 0; i < vq->num_free; i++) {
		if (index >= vq->size || seen[index])
			abort();
		seen[index] = 1;
		index = vq->desc[index].next;
	}
	for (uint16_t i = 0; i < vq->size; i++)
		in_flight += vq->chain_len[i];
	if (in_flight + vq->num_free != vq->size)
		abort();
}

static void driver_add(struct virtqueue *vq, struct script *s, uint8_t *handed_out)
{
	struct virtq_buf bufs[4];
	uint16_t count = (uint16_t)(1 + next(s, 1) % 4), head;

	for (uint16_t i = 0; i < count; i++)
		bufs[i] = (struct virtq_buf){0x1000 * i, 512, i + 1 == count};
	if (virtq_add(vq, bufs, count, &head) == EFI_SUCCESS)
		handed_out[head] = 1;
}

static void driver_take(struct virtqueue *vq, uint8_t *handed_out)
{
	uint16_t head;
	uint32_t len;

	if (virtq_get_used(vq, &head, &len) != EFI_SUCCESS)
		return;
	if (head >= vq->size || !handed_out[head])
		abort();
	handed_out[head] = 0;
}

static void device_write(struct virtqueue *vq, struct script *s, bool set_idx)
{
	if (set_idx) {
		vq->used->idx = (uint16_t)next(s, 2);
		return;
	}
	vq->used->ring[vq->used->idx % vq->size].id = next(s, 2);
	vq->used->ring[vq->used->idx % vq->size].len = next(s, 4);
	vq->used->idx++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t ring[16384] __attribute__((aligned(4096)));
	uint8_t handed_out[64] = {0};
	struct script s = {data, size, 0};
	struct virtqueue vq;
	uint16_t queue_size = (uint16_t)(1u << (next(&s, 1) % 7)); /* 1 to 64 */

	if (virtq_init(&vq, queue_size, ring, 0x100000, next(&s, 1) & 1) != EFI_SUCCESS)
		abort();
	while (s.at < s.size) {
		switch (next(&s, 1) % 4) {
		case 0:
			driver_add(&vq, &s, handed_out);
			break;
		case 1:
			driver_take(&vq, handed_out);
			break;
		default:
			device_write(&vq, &s, s.at < s.size && (s.data[s.at] & 0x80));
			break;
		}
		check_accounting(&vq);
	}
	virtq_free(&vq);
	return 0;
}
