/* virtio-net under the SNP front end (include/ember/drivers/snp_front.h): the device's queues
 * come up at Initialize; frames the filters refuse go straight back to the receive queue.
 * The MAC cannot be changed (no VIRTIO_NET_F_CTRL_MAC_ADDR) and no statistics are kept:
 * StationAddress with a new address and Statistics answer EFI_UNSUPPORTED, as 24.1 allows.
 * Entry points run at TPL_CALLBACK: a caller's timer (MNP polls from one) cannot interleave. */
#include "virtio_net.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

static struct virtio_net *vnet_of(struct snp_front *f)
{
	return container_of(f, struct virtio_net, front);
}

static EFI_STATUS op_up(struct snp_front *f)
{
	return vnet_dev_up(vnet_of(f));
}

static void op_down(struct snp_front *f)
{
	vnet_dev_down(vnet_of(f));
}

static void op_poll(struct snp_front *f)
{
	vnet_dev_reap_tx(vnet_of(f));
}

static bool op_link_up(struct snp_front *f)
{
	return vnet_dev_link_up(vnet_of(f));
}

static EFI_STATUS op_send(struct snp_front *f, const UINT8 *frame, UINT32 len, void *owner)
{
	return vnet_dev_send(vnet_of(f), frame, len, owner);
}

/* The oldest buffer the device has sent, or NULL. */
static void *op_take_sent(struct snp_front *f)
{
	struct virtio_net *n = vnet_of(f);
	UINT16 slot;
	void *owner;

	if (!n->tx_done_count)
		return NULL;
	slot = n->tx_done[0];
	owner = n->tx_owner[slot];
	n->tx_owner[slot] = NULL;
	n->tx_done_count--;
	mem_copy(n->tx_done, n->tx_done + 1, n->tx_done_count * sizeof(n->tx_done[0]));
	return owner;
}

static const UINT8 *op_peek(struct snp_front *f, UINT32 *len)
{
	struct virtio_net *n = vnet_of(f);

	if (!n->live || EFI_ERROR(vnet_dev_peek(n)))
		return NULL;
	*len = n->rx_pending_len;
	return vnet_dev_pending_frame(n);
}

static void op_pop(struct snp_front *f)
{
	vnet_dev_release_pending(vnet_of(f));
}

static const struct snp_front_ops vnet_snp_ops = {
    .up = op_up,
    .down = op_down,
    .poll = op_poll,
    .link_up = op_link_up,
    .send = op_send,
    .take_sent = op_take_sent,
    .peek = op_peek,
    .pop = op_pop,
};

EFI_STATUS vnet_snp_init(struct virtio_net *n)
{
	EFI_STATUS status = snp_front_init(&n->front, &vnet_snp_ops, TPL_CALLBACK);

	n->front.mode.MacAddressChangeable = FALSE;
	return status;
}

void vnet_snp_fini(struct virtio_net *n)
{
	snp_front_fini(&n->front);
	vnet_dev_down(n);
}
