/* The hosted NIC under the SNP front end (include/ember/drivers/snp_front.h). Its MAC can be
 * changed and it keeps statistics. A transmitted buffer is the caller's again once GetStatus
 * has handed it back through TxBuf; until then it counts against NET_TX_SLOTS (Transmit
 * answers EFI_NOT_READY when all are taken). Entry points run at TPL_NOTIFY, the level of
 * everything that enters libslirp (net_nic.c). */
#include <string.h>

#include "net.h"
#include <ember/core/core.h>
#include <ember/lib/util.h>

static struct net_nic *nic_of(struct snp_front *f)
{
	return container_of(f, struct net_nic, front);
}

static EFI_STATUS op_up(struct snp_front *f)
{
	net_nic_flush(nic_of(f));
	net_nic_tick_enable(nic_of(f), true);
	return EFI_SUCCESS;
}

static void op_down(struct snp_front *f)
{
	net_nic_tick_enable(nic_of(f), false);
	net_nic_flush(nic_of(f));
}

static void op_poll(struct snp_front *f)
{
	net_nic_pump(nic_of(f));
}

static bool op_link_up(struct snp_front *f)
{
	return true;
}

static EFI_STATUS op_send(struct snp_front *f, const UINT8 *frame, UINT32 len, void *owner)
{
	struct net_nic *nic = nic_of(f);

	if (nic->tx_count == NET_TX_SLOTS)
		return EFI_NOT_READY; /* the caller recycles buffers with GetStatus */
	nic->tx[(nic->tx_head + nic->tx_count++) % NET_TX_SLOTS] = owner;
	f->interrupts |= EFI_SIMPLE_NETWORK_TRANSMIT_INTERRUPT;
	net_nic_send(nic, frame, len);
	return EFI_SUCCESS;
}

static void *op_take_sent(struct snp_front *f)
{
	struct net_nic *nic = nic_of(f);
	void *buffer;

	if (!nic->tx_count)
		return NULL;
	buffer = nic->tx[nic->tx_head];
	nic->tx_head = (nic->tx_head + 1) % NET_TX_SLOTS;
	nic->tx_count--;
	return buffer;
}

static const UINT8 *op_peek(struct snp_front *f, UINT32 *len)
{
	struct net_frame *frame = net_nic_peek(nic_of(f));

	if (!frame)
		return NULL;
	*len = frame->length;
	return frame->data;
}

static void op_pop(struct snp_front *f)
{
	net_nic_pop(nic_of(f));
}

/* Counters the NIC does not keep read as all ones, told apart from a count of zero. */
static void statistics_read(const struct net_nic *nic, EFI_NETWORK_STATISTICS *out)
{
	EFI_NETWORK_STATISTICS s = nic->stats;

	s.RxCrcErrorFrames = s.TxUndersizeFrames = s.TxOversizeFrames = s.TxDroppedFrames =
	    s.TxCrcErrorFrames = s.Collisions = s.UnsupportedProtocol = s.RxDuplicatedFrames =
		s.RxDecryptErrorFrames = s.TxErrorFrames = s.TxRetryFrames = ~0ULL;
	*out = s;
}

static EFI_STATUS op_statistics(struct snp_front *f, bool reset, UINTN *size,
				EFI_NETWORK_STATISTICS *table)
{
	struct net_nic *nic = nic_of(f);
	EFI_NETWORK_STATISTICS s;
	UINTN room;

	if (!size) {
		if (!reset)
			return EFI_INVALID_PARAMETER; /* nothing asked for */
		memset(&nic->stats, 0, sizeof(nic->stats));
		return EFI_SUCCESS;
	}
	room = *size;
	*size = sizeof(s);
	if (!table)
		return EFI_BUFFER_TOO_SMALL;
	statistics_read(nic, &s);
	memcpy(table, &s, room < sizeof(s) ? room : sizeof(s));
	if (reset)
		memset(&nic->stats, 0, sizeof(nic->stats));
	return room < sizeof(s) ? EFI_BUFFER_TOO_SMALL : EFI_SUCCESS;
}

static const struct snp_front_ops net_snp_ops = {
    .up = op_up,
    .down = op_down,
    .poll = op_poll,
    .link_up = op_link_up,
    .send = op_send,
    .take_sent = op_take_sent,
    .peek = op_peek,
    .pop = op_pop,
    .statistics = op_statistics,
};

EFI_STATUS net_snp_init(struct net_nic *nic, const UINT8 mac[NET_MAC_SIZE])
{
	EFI_SIMPLE_NETWORK_MODE *m = &nic->front.mode;
	EFI_STATUS status = snp_front_init(&nic->front, &net_snp_ops, TPL_NOTIFY);

	memset(&m->PermanentAddress, 0, sizeof(m->PermanentAddress));
	memcpy(m->PermanentAddress.Addr, mac, NET_MAC_SIZE);
	m->CurrentAddress = m->PermanentAddress;
	m->MacAddressChangeable = TRUE;
	m->MediaPresentSupported = TRUE;
	m->MediaPresent = TRUE;
	return status;
}
