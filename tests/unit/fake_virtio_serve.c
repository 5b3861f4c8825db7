/* The device side of split virtqueues (virtio 1.x, 2.7) for the fake virtio device: chains
 * taken from the available ring, served by the virtio-blk (5.2.6) or virtio-rng (5.4.6)
 * backend and returned in the used ring. Rings and buffers are reached only through the
 * fake PCI function's mappings, as a device behind an IOMMU would. */
#include <string.h>
#include <unistd.h>

#include "fake_virtio.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <ember/lib/util.h>

#define MAX_CHAIN FAKE_VIRTIO_MAX_CHAIN
#define SECTOR 512

static UINT64 avail_bytes(UINT16 size)
{
	return 6 + 2ULL * size;
}

static UINT64 used_bytes(UINT16 size)
{
	return 6 + 8ULL * size;
}

bool fake_virtio_ring_mapped(struct fake_virtio *d, const struct fake_virtio_queue *q)
{
	return fake_pci_io_dma(d->pci, q->desc, 16ULL * q->size, false) &&
	       fake_pci_io_dma(d->pci, q->avail, avail_bytes(q->size), false) &&
	       fake_pci_io_dma(d->pci, q->used, used_bytes(q->size), true);
}

static void take_chain(struct fake_virtio *d, const struct fake_virtio_queue *q,
		       volatile struct virtq_desc *desc, UINT16 head, struct fake_virtio_chain *c)
{
	UINT16 index = head;

	c->count = 0;
	c->bad = false;
	for (;;) {
		volatile struct virtq_desc *e = &desc[index];
		UINT16 flags = e->flags;
		bool writes = flags & VIRTQ_DESC_F_WRITE;
		struct fake_virtio_buf *b = &c->bufs[c->count];

		if (flags & VIRTQ_DESC_F_INDIRECT)
			fake_virtio_error(d, "indirect descriptor not negotiated", index);
		if (!writes && c->count && c->bufs[c->count - 1].writes)
			fake_virtio_error(d, "readable descriptor after a writable one", index);
		*b = (struct fake_virtio_buf){fake_pci_io_dma(d->pci, e->addr, e->len, writes),
					      e->len, writes};
		c->bad |= !b->p;
		c->count++;
		if (!(flags & VIRTQ_DESC_F_NEXT))
			return;
		index = e->next;
		if (index >= q->size || c->count == MIN(q->size, (UINT16)MAX_CHAIN)) {
			fake_virtio_error(d, "descriptor chain loops or leaves the table", index);
			c->bad = true;
			return;
		}
	}
}

/* ---- virtio-blk ---- */

static UINT32 config32(struct fake_virtio *d, UINT32 offset)
{
	UINT32 value;

	memcpy(&value, d->config + offset, 4);
	return value;
}

/* The limits the driver accepted (VIRTIO_BLK_F_SEG_MAX, VIRTIO_BLK_F_SIZE_MAX) hold. */
static void check_segments(struct fake_virtio *d, const struct fake_virtio_buf *data, UINT16 count)
{
	d->stats.max_segments = MAX(d->stats.max_segments, (UINTN)count);
	if ((d->accepted & VIRTIO_BLK_F_SEG_MAX) && count > config32(d, VIRTIO_BLK_CFG_SEG_MAX))
		fake_virtio_error(d, "more segments than seg_max", count);
	for (UINT16 i = 0; i < count; i++) {
		d->stats.max_segment_bytes = MAX(d->stats.max_segment_bytes, data[i].len);
		if ((d->accepted & VIRTIO_BLK_F_SIZE_MAX) &&
		    data[i].len > config32(d, VIRTIO_BLK_CFG_SIZE_MAX))
			fake_virtio_error(d, "segment longer than size_max", data[i].len);
	}
}

/* Reads or writes the medium; the data descriptors must all go one way. */
static UINT8 blk_transfer(struct fake_virtio *d, UINT64 sector, struct fake_virtio_buf *data,
			  UINT16 count, bool read, UINT32 *written)
{
	UINT64 offset = sector * SECTOR, total = 0;

	for (UINT16 i = 0; i < count; i++) {
		if (data[i].writes != read)
			fake_virtio_error(d, "data descriptor of the wrong direction", i);
		total += data[i].len;
	}
	if (total % SECTOR)
		fake_virtio_error(d, "transfer not a multiple of 512 bytes", total);
	if (!read && (d->accepted & VIRTIO_BLK_F_RO))
		return VIRTIO_BLK_S_IOERR;
	if (sector > d->disk_bytes / SECTOR || total > d->disk_bytes - offset)
		return VIRTIO_BLK_S_IOERR;
	for (UINT16 i = 0; i < count; offset += data[i].len, i++)
		if (read)
			memcpy(data[i].p, d->disk + offset, data[i].len);
		else
			memcpy(d->disk + offset, data[i].p, data[i].len);
	*written = read ? (UINT32)total : 0;
	return VIRTIO_BLK_S_OK;
}

static UINT8 blk_get_id(struct fake_virtio *d, struct fake_virtio_buf *data, UINT16 count,
			UINT32 *written)
{
	if (count != 1 || !data->writes || data->len < VIRTIO_BLK_ID_BYTES) {
		fake_virtio_error(d, "GET_ID without one writable 20-byte buffer", count);
		return VIRTIO_BLK_S_IOERR;
	}
	memset(data->p, 0, VIRTIO_BLK_ID_BYTES);
	memcpy(data->p, d->serial, strnlen(d->serial, VIRTIO_BLK_ID_BYTES));
	*written = VIRTIO_BLK_ID_BYTES;
	return VIRTIO_BLK_S_OK;
}

static UINT8 blk_execute(struct fake_virtio *d, const struct virtio_blk_req_header *h,
			 struct fake_virtio_buf *data, UINT16 count, UINT32 *written)
{
	if (h->type < 32 && (d->faults.blk_fail_types & (1u << h->type)))
		return d->faults.blk_fail_status;
	switch (h->type) {
	case VIRTIO_BLK_T_IN:
		d->stats.reads++;
		return blk_transfer(d, h->sector, data, count, true, written);
	case VIRTIO_BLK_T_OUT:
		d->stats.writes++;
		return blk_transfer(d, h->sector, data, count, false, written);
	case VIRTIO_BLK_T_FLUSH:
		d->stats.flushes++;
		if (count)
			fake_virtio_error(d, "flush with data", count);
		return d->accepted & VIRTIO_BLK_F_FLUSH ? VIRTIO_BLK_S_OK : VIRTIO_BLK_S_UNSUPP;
	case VIRTIO_BLK_T_GET_ID:
		d->stats.get_ids++;
		return blk_get_id(d, data, count, written);
	default:
		return VIRTIO_BLK_S_UNSUPP;
	}
}

/* A request: a readable header, data, a writable status byte. Returns the bytes written. */
static UINT32 blk_serve(struct fake_virtio *d, struct fake_virtio_chain *c)
{
	struct fake_virtio_buf *header = &c->bufs[0], *status = &c->bufs[c->count - 1];
	struct virtio_blk_req_header h;
	UINT16 count = (UINT16)(c->count - 2);
	UINT32 written = 0;

	d->stats.requests++;
	if (c->bad || c->count < 2 || header->writes || header->len != sizeof(h) ||
	    !status->writes || status->len != 1) {
		fake_virtio_error(d, "malformed virtio-blk request", c->count);
		return 0;
	}
	memcpy(&h, header->p, sizeof(h));
	check_segments(d, c->bufs + 1, count);
	*status->p = blk_execute(d, &h, c->bufs + 1, count, &written);
	return written + 1;
}

/* ---- virtio-rng: every buffer is the device's to fill ---- */

static UINT32 rng_serve(struct fake_virtio *d, struct fake_virtio_chain *c)
{
	UINT32 written = 0, limit = d->faults.rng_limit ? d->faults.rng_limit : UINT32_MAX;

	if (c->bad || d->faults.rng_empty)
		return 0;
	for (UINT16 i = 0; i < c->count; i++) {
		UINT32 n = MIN(c->bufs[i].len, limit - written);
		if (!c->bufs[i].writes) {
			fake_virtio_error(d, "entropy buffer the device may not write", i);
			return written;
		}
		for (UINT32 k = 0; k < n; k++)
			c->bufs[i].p[k] = fake_virtio_rng_byte(d->stats.rng_bytes++);
		written += n;
	}
	return written;
}

/* ---- Queues ---- */

static void put_used(struct fake_virtio *d, const struct fake_virtio_queue *q,
		     volatile struct virtq_used *used, UINT16 head, UINT32 len)
{
	volatile struct virtq_used_elem *e = &used->ring[used->idx % q->size];

	/* A head out of the table: no driver can have it in flight. */
	e->id = d->faults.corrupt_used ? (UINT32)head + q->size : head;
	e->len = len;
	/* The element before the index that publishes it (2.7.8.2). */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	used->idx = (UINT16)(used->idx + 1);
}

static void serve_queue(struct fake_virtio *d, UINT16 index)
{
	struct fake_virtio_queue *q = &d->queues[index];
	volatile struct virtq_desc *desc;
	volatile struct virtq_avail *avail;
	volatile struct virtq_used *used;
	struct fake_virtio_chain c;

	if (d->lost)
		return; /* it forgot the queue: nothing happens */
	if (!(d->status & VIRTIO_STATUS_DRIVER_OK) || !q->enabled) {
		fake_virtio_error(d, "notified before DRIVER_OK or queue enable", index);
		return;
	}
	desc = fake_pci_io_dma(d->pci, q->desc, 16ULL * q->size, false);
	avail = fake_pci_io_dma(d->pci, q->avail, avail_bytes(q->size), false);
	used = fake_pci_io_dma(d->pci, q->used, used_bytes(q->size), true);
	if (!desc || !avail || !used)
		return;
	while (q->last_avail != avail->idx) {
		UINT16 head;
		UINT32 len;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		head = avail->ring[q->last_avail % q->size];
		if (head >= q->size) {
			fake_virtio_error(d, "available head out of the table", head);
			q->last_avail++;
			continue;
		}
		take_chain(d, q, desc, head, &c);
		len = d->serve ? d->serve(d, index, &c)
		      : d->gpu ? fake_virtio_gpu_serve(d, c.bufs, c.count, c.bad)
		      : d->type == VIRTIO_ID_BLOCK ? blk_serve(d, &c)
						   : rng_serve(d, &c);
		if (len == FAKE_VIRTIO_HOLD)
			return; /* the device keeps the chain for later (a NIC's receive buffer) */
		q->last_avail++;
		put_used(d, q, used, head, len);
	}
}

static void *serve_late(void *context)
{
	struct fake_virtio *d = context;

	usleep(d->faults.late_us);
	serve_queue(d, d->late_index);
	return NULL;
}

void fake_virtio_notify(struct fake_virtio *d, UINT16 index)
{
	d->stats.notifies++;
	if (!d->faults.late_us) {
		serve_queue(d, index);
		return;
	}
	fake_virtio_settle(d);
	d->late_index = index;
	d->late_running = pthread_create(&d->late_thread, NULL, serve_late, d) == 0;
	if (!d->late_running)
		serve_queue(d, index);
}

void fake_virtio_settle(struct fake_virtio *d)
{
	if (d->late_running)
		pthread_join(d->late_thread, NULL);
	d->late_running = false;
}
