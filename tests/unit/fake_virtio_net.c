/* The virtio-net backend of the fake virtio device: transmit chains are read (a zeroed
 * virtio_net_hdr, then the frame), receive chains are held until a frame is delivered. */
#include <stdlib.h>
#include <string.h>

#include "fake_virtio_net.h"
#include "../../drivers/virtio/virtio_spec.h"

#define F_CSUM (1ULL << 0)
#define F_MAC (1ULL << 5)
#define F_STATUS (1ULL << 16)

static const UINT8 fake_mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};

struct fake_virtio_net *fake_virtio_net(struct fake_virtio *d)
{
	return d->backend;
}

/* 12 bytes with VERSION_1, 10 on the legacy interface without MRG_RXBUF (5.1.6.1). */
static UINT32 header_size(struct fake_virtio *d)
{
	return (d->accepted & VIRTIO_F_VERSION_1) ? 12 : 10;
}

/* The chain's bytes in one piece: readable buffers for a transmit, and no writable one. */
static UINT32 gather(struct fake_virtio *d, struct fake_virtio_chain *c, UINT8 *out, UINT32 max)
{
	UINT32 total = 0;

	for (UINT16 i = 0; i < c->count; i++) {
		if (c->bufs[i].writes || c->bufs[i].len > max - total) {
			fake_virtio_error(d, "transmit chain writable or too long", i);
			return 0;
		}
		memcpy(out + total, c->bufs[i].p, c->bufs[i].len);
		total += c->bufs[i].len;
	}
	return total;
}

static void transmit(struct fake_virtio *d, struct fake_virtio_chain *c)
{
	struct fake_virtio_net *n = fake_virtio_net(d);
	UINT8 bytes[FAKE_NET_FRAME_MAX + 64];
	UINT32 total = c->bad ? 0 : gather(d, c, bytes, sizeof(bytes)), hdr = header_size(d);
	UINTN slot = n->tx_count % FAKE_NET_FRAMES;

	if (total < hdr + 14) {
		fake_virtio_error(d, "transmit shorter than header and Ethernet header", total);
		return;
	}
	for (UINT32 i = 0; i < hdr; i++)
		if (bytes[i])
			fake_virtio_error(d, "virtio_net_hdr asks for an offload", i);
	n->tx_len[slot] = total - hdr;
	memcpy(n->tx[slot], bytes + hdr, total - hdr);
	n->tx_count++;
}

/* One writable buffer takes the header and the frame. */
static UINT32 receive(struct fake_virtio *d, struct fake_virtio_chain *c)
{
	struct fake_virtio_net *n = fake_virtio_net(d);
	UINT32 hdr = header_size(d), len, claimed;

	if (!n->rx_count)
		return FAKE_VIRTIO_HOLD;
	if (c->bad || c->count != 1 || !c->bufs[0].writes) {
		fake_virtio_error(d, "receive chain not one writable buffer", c->count);
		return 0;
	}
	len = n->rx_len[0];
	if (hdr + len > c->bufs[0].len) {
		fake_virtio_error(d, "receive buffer too small for a full frame", c->bufs[0].len);
		len = c->bufs[0].len - hdr;
	}
	memset(c->bufs[0].p, 0, hdr);
	if (hdr == 12)
		c->bufs[0].p[10] = 1; /* num_buffers */
	memcpy(c->bufs[0].p + hdr, n->rx[0], len);
	n->rx_count--;
	memmove(n->rx, n->rx[1], n->rx_count * sizeof(n->rx[0]));
	memmove(n->rx_len, n->rx_len + 1, n->rx_count * sizeof(n->rx_len[0]));
	claimed = n->used_len ? n->used_len : hdr + len;
	n->used_len = 0;
	return claimed;
}

static UINT32 serve(struct fake_virtio *d, UINT16 index, struct fake_virtio_chain *c)
{
	if (index == 1) {
		transmit(d, c);
		return 0;
	}
	if (index == 0)
		return receive(d, c);
	fake_virtio_error(d, "notified a queue virtio-net does not have", index);
	return 0;
}

void fake_virtio_net_deliver(struct fake_virtio *d, const void *frame, UINT32 len)
{
	struct fake_virtio_net *n = fake_virtio_net(d);

	if (n->rx_count == FAKE_NET_FRAMES || len > FAKE_NET_FRAME_MAX)
		return;
	memcpy(n->rx[n->rx_count], frame, len);
	n->rx_len[n->rx_count++] = len;
	if (d->status & VIRTIO_STATUS_DRIVER_OK)
		fake_virtio_notify(d, 0);
}

struct fake_virtio *fake_virtio_net_create(enum fake_virtio_interface interface)
{
	struct fake_virtio *d = fake_virtio_create(interface, FAKE_VIRTIO_ID_NET);

	if (!d)
		return NULL;
	d->backend = calloc(1, sizeof(struct fake_virtio_net));
	if (!d->backend) {
		fake_virtio_destroy(d);
		return NULL;
	}
	d->serve = serve;
	d->offered |= F_CSUM | F_MAC | F_STATUS;
	d->num_queues = 2;
	d->queues[0].max = d->queues[0].size = 256;
	d->queues[1].max = d->queues[1].size = 256;
	memcpy(d->config, fake_mac, sizeof(fake_mac));
	fake_virtio_set_config(d, 6, 2, 1); /* VIRTIO_NET_S_LINK_UP */
	return d;
}

void fake_virtio_net_destroy(struct fake_virtio *d)
{
	void *backend = d ? d->backend : NULL;

	fake_virtio_destroy(d);
	free(backend);
}
