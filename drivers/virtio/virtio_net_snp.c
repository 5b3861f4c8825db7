/* EFI_SIMPLE_NETWORK_PROTOCOL over virtio-net (UEFI 2.10, 24.1). The state machine: Start
 * takes Stopped to Started, Initialize Started to Initialized (the device's queues are set
 * up only then), Shutdown back to Started, Stop to Stopped. A call in the wrong state answers
 * EFI_NOT_STARTED when the interface is stopped and EFI_DEVICE_ERROR when it is started but
 * not initialized (EFI_ALREADY_STARTED for Start). Receive filters are applied in software to
 * every frame, so all five filter bits and a multicast list of MAX_MCAST_FILTER_CNT work
 * whatever the device delivers (virtio-net without VIRTIO_NET_F_CTRL_RX filters nothing the
 * driver can rely on). The MAC cannot be changed (no VIRTIO_NET_F_CTRL_MAC_ADDR), statistics
 * and NVRAM are not kept: those answer EFI_UNSUPPORTED, as 24.1 allows. Every entry point runs
 * at TPL_CALLBACK at least, so a caller's timer (MNP polls from one) cannot interleave. */
#include "virtio_net.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define ALL_FILTERS                                                                                \
	(EFI_SIMPLE_NETWORK_RECEIVE_UNICAST | EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST |               \
	 EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST | EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS |           \
	 EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS_MULTICAST)

static struct virtio_net *vnet_of(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	return container_of(this, struct virtio_net, snp);
}

/* The status of a call that needs an Initialized interface in n's state. */
static EFI_STATUS need_initialized(struct virtio_net *n)
{
	if (n->mode.State == EfiSimpleNetworkStopped)
		return EFI_NOT_STARTED;
	if (n->mode.State != EfiSimpleNetworkInitialized)
		return EFI_DEVICE_ERROR;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_start(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	EFI_STATUS status = EFI_SUCCESS;
	struct virtio_net *n;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	if (n->mode.State != EfiSimpleNetworkStopped)
		status = EFI_ALREADY_STARTED;
	else
		n->mode.State = EfiSimpleNetworkStarted;
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI snp_stop(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	EFI_STATUS status = EFI_SUCCESS;
	struct virtio_net *n;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	if (n->mode.State == EfiSimpleNetworkStopped)
		status = EFI_NOT_STARTED;
	else if (n->mode.State != EfiSimpleNetworkStarted)
		status = EFI_DEVICE_ERROR; /* Shutdown first */
	else
		n->mode.State = EfiSimpleNetworkStopped;
	tpl_restore(old);
	return status;
}

/* The extra buffer sizes are hints for drivers that pre-allocate per caller; Ember's
 * buffers are fixed. */
static EFI_STATUS EFIAPI snp_initialize(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN extra_rx,
					UINTN extra_tx)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	if (n->mode.State == EfiSimpleNetworkStopped)
		status = EFI_NOT_STARTED;
	else if (n->mode.State == EfiSimpleNetworkInitialized)
		status = EFI_DEVICE_ERROR;
	else
		status = EFI_ERROR(vnet_dev_up(n)) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
	if (!EFI_ERROR(status)) {
		n->mode.State = EfiSimpleNetworkInitialized;
		n->mode.MediaPresent = vnet_dev_link_up(n);
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI snp_reset(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN extended)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	status = need_initialized(n);
	if (!EFI_ERROR(status)) {
		vnet_dev_down(n);
		if (EFI_ERROR(vnet_dev_up(n))) {
			n->mode.State = EfiSimpleNetworkStarted; /* the device is gone */
			status = EFI_DEVICE_ERROR;
		}
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI snp_shutdown(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	status = need_initialized(n);
	if (!EFI_ERROR(status)) {
		vnet_dev_down(n);
		n->mode.State = EfiSimpleNetworkStarted;
		n->mode.ReceiveFilterSetting = 0;
		n->mode.MCastFilterCount = 0;
	}
	tpl_restore(old);
	return status;
}

/* 24.1.7's list: bits outside the mask; multicast being enabled (set in Enable, not in
 * Disable, the list not being reset) with no list, a list longer than the mode allows, or an
 * address without the group bit. */
static EFI_STATUS check_filters(struct virtio_net *n, UINT32 enable, UINT32 disable, bool reset,
				UINTN count, const EFI_MAC_ADDRESS *list)
{
	if ((enable | disable) & ~n->mode.ReceiveFilterMask)
		return EFI_INVALID_PARAMETER;
	if (!(enable & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST) ||
	    (disable & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST) || reset)
		return EFI_SUCCESS;
	if (!count || count > n->mode.MaxMCastFilterCount || !list)
		return EFI_INVALID_PARAMETER;
	for (UINTN i = 0; i < count; i++)
		if (!(list[i].Addr[0] & 1))
			return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_receive_filters(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINT32 enable,
					     UINT32 disable, BOOLEAN reset_mcast, UINTN count,
					     EFI_MAC_ADDRESS *list)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	status = need_initialized(n);
	if (!EFI_ERROR(status))
		status = check_filters(n, enable, disable, reset_mcast, count, list);
	if (!EFI_ERROR(status)) {
		n->mode.ReceiveFilterSetting = (n->mode.ReceiveFilterSetting | enable) & ~disable;
		if (reset_mcast) {
			n->mode.MCastFilterCount = 0;
		} else if (count && list && count <= MAX_MCAST_FILTER_CNT) {
			mem_set(n->mode.MCastFilter, 0, sizeof(n->mode.MCastFilter));
			mem_copy(n->mode.MCastFilter, list, count * sizeof(*list));
			n->mode.MCastFilterCount = (UINT32)count;
		}
	}
	tpl_restore(old);
	return status;
}

/* Resetting to the permanent address always works; a new address needs
 * VIRTIO_NET_F_CTRL_MAC_ADDR, which Ember does not negotiate (MacAddressChangeable is
 * FALSE), so it is EFI_UNSUPPORTED. */
static EFI_STATUS EFIAPI snp_station_address(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN reset,
					     EFI_MAC_ADDRESS *new_address)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	status = need_initialized(n);
	if (!EFI_ERROR(status) && reset)
		n->mode.CurrentAddress = n->mode.PermanentAddress;
	else if (!EFI_ERROR(status))
		status = new_address ? EFI_UNSUPPORTED : EFI_INVALID_PARAMETER;
	tpl_restore(old);
	return status;
}

/* The state checks first, then EFI_UNSUPPORTED (no counters are kept). */
static EFI_STATUS EFIAPI snp_statistics(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN reset,
					UINTN *size, EFI_NETWORK_STATISTICS *table)
{
	EFI_STATUS status;

	if (!this)
		return EFI_INVALID_PARAMETER;
	status = need_initialized(vnet_of(this));
	return EFI_ERROR(status) ? status : EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI snp_mcast_ip_to_mac(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN ipv6,
					     EFI_IP_ADDRESS *ip, EFI_MAC_ADDRESS *mac)
{
	EFI_STATUS status;

	if (!this)
		return EFI_INVALID_PARAMETER;
	status = need_initialized(vnet_of(this));
	if (EFI_ERROR(status))
		return status;
	if (!ip || !mac)
		return EFI_INVALID_PARAMETER;
	return vnet_mcast_ip_to_mac(ipv6, ip, mac);
}

/* No NVRAM (NvRamSize 0). */
static EFI_STATUS EFIAPI snp_nvdata(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN read_write,
				    UINTN offset, UINTN size, VOID *buffer)
{
	EFI_STATUS status;

	if (!this)
		return EFI_INVALID_PARAMETER;
	status = need_initialized(vnet_of(this));
	return EFI_ERROR(status) ? status : EFI_UNSUPPORTED;
}

/* The oldest buffer the device has sent, or NULL. */
static void *recycle_tx(struct virtio_net *n)
{
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

static EFI_STATUS EFIAPI snp_get_status(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINT32 *interrupts,
					VOID **tx_buf)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	status = need_initialized(n);
	if (!EFI_ERROR(status)) {
		vnet_dev_reap_tx(n);
		n->mode.MediaPresent = vnet_dev_link_up(n);
		if (interrupts) {
			if (!EFI_ERROR(vnet_dev_peek(n)))
				n->interrupts |= EFI_SIMPLE_NETWORK_RECEIVE_INTERRUPT;
			*interrupts = n->interrupts;
			n->interrupts = 0; /* reading clears them (24.1.12) */
		}
		if (tx_buf)
			*tx_buf = recycle_tx(n);
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS check_transmit(struct virtio_net *n, UINTN header_size, UINTN size,
				 const void *buffer, const EFI_MAC_ADDRESS *dest,
				 const UINT16 *protocol)
{
	if (!buffer)
		return EFI_INVALID_PARAMETER;
	if (header_size && (header_size != n->mode.MediaHeaderSize || !dest || !protocol))
		return EFI_INVALID_PARAMETER;
	if (size < n->mode.MediaHeaderSize)
		return EFI_BUFFER_TOO_SMALL;
	if (size > n->mode.MediaHeaderSize + n->mode.MaxPacketSize)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* With HeaderSize set, the media header is written into the caller's buffer (24.1.13). */
static EFI_STATUS EFIAPI snp_transmit(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN header_size,
				      UINTN size, VOID *buffer, EFI_MAC_ADDRESS *src,
				      EFI_MAC_ADDRESS *dest, UINT16 *protocol)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	status = need_initialized(n);
	if (!EFI_ERROR(status))
		status = check_transmit(n, header_size, size, buffer, dest, protocol);
	if (!EFI_ERROR(status) && header_size)
		vnet_fill_header(buffer, dest, src ? src : &n->mode.CurrentAddress, *protocol);
	if (!EFI_ERROR(status))
		status = vnet_dev_send(n, buffer, (UINT32)size, buffer);
	tpl_restore(old);
	return status;
}

/* Hands the pending frame out; EFI_BUFFER_TOO_SMALL keeps it for a bigger buffer. */
static EFI_STATUS deliver(struct virtio_net *n, UINTN *header_size, UINTN *size, UINT8 *buffer,
			  EFI_MAC_ADDRESS *src, EFI_MAC_ADDRESS *dest, UINT16 *protocol)
{
	const UINT8 *frame = vnet_dev_pending_frame(n);
	UINT32 len = n->rx_pending_len;

	if (*size < len) {
		*size = len;
		return EFI_BUFFER_TOO_SMALL;
	}
	mem_copy(buffer, frame, len);
	*size = len;
	if (header_size)
		*header_size = VNET_ETH_HEADER;
	if (dest)
		mem_copy(dest->Addr, frame, VNET_ETH_ADDR);
	if (src)
		mem_copy(src->Addr, frame + VNET_ETH_ADDR, VNET_ETH_ADDR);
	if (protocol)
		*protocol = (UINT16)(frame[12] << 8 | frame[13]);
	vnet_dev_release_pending(n);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_receive(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN *header_size,
				     UINTN *size, VOID *buffer, EFI_MAC_ADDRESS *src,
				     EFI_MAC_ADDRESS *dest, UINT16 *protocol)
{
	struct virtio_net *n;
	EFI_STATUS status;
	EFI_TPL old;

	if (!this)
		return EFI_INVALID_PARAMETER;
	n = vnet_of(this);
	old = tpl_raise(TPL_CALLBACK);
	status = need_initialized(n);
	if (!EFI_ERROR(status) && (!size || !buffer))
		status = EFI_INVALID_PARAMETER;
	if (!EFI_ERROR(status))
		status = vnet_dev_peek(n);
	if (!EFI_ERROR(status))
		status = deliver(n, header_size, size, buffer, src, dest, protocol);
	tpl_restore(old);
	return status;
}

/* WaitForPacket: signalled while a frame the filters accept is waiting. */
static void EFIAPI wait_for_packet(EFI_EVENT event, void *context)
{
	struct virtio_net *n = context;

	if (n->live && !EFI_ERROR(vnet_dev_peek(n)))
		event_signal(event);
}

static const EFI_SIMPLE_NETWORK_PROTOCOL snp_template = {
    .Revision = EFI_SIMPLE_NETWORK_PROTOCOL_REVISION,
    .Start = snp_start,
    .Stop = snp_stop,
    .Initialize = snp_initialize,
    .Reset = snp_reset,
    .Shutdown = snp_shutdown,
    .ReceiveFilters = snp_receive_filters,
    .StationAddress = snp_station_address,
    .Statistics = snp_statistics,
    .MCastIpToMac = snp_mcast_ip_to_mac,
    .NvData = snp_nvdata,
    .GetStatus = snp_get_status,
    .Transmit = snp_transmit,
    .Receive = snp_receive,
};

EFI_STATUS vnet_snp_init(struct virtio_net *n)
{
	EFI_SIMPLE_NETWORK_MODE *m = &n->mode;

	n->snp = snp_template;
	n->snp.Mode = m;
	m->State = EfiSimpleNetworkStopped;
	m->HwAddressSize = VNET_ETH_ADDR;
	m->MediaHeaderSize = VNET_ETH_HEADER;
	m->MaxPacketSize = VNET_MTU;
	m->ReceiveFilterMask = ALL_FILTERS;
	m->MaxMCastFilterCount = MAX_MCAST_FILTER_CNT;
	mem_set(m->BroadcastAddress.Addr, 0xff, VNET_ETH_ADDR);
	m->IfType = IF_TYPE_ETHERNET;
	m->MacAddressChangeable = FALSE;
	m->MultipleTxSupported = TRUE;
	return event_create(EVT_NOTIFY_WAIT, TPL_CALLBACK, wait_for_packet, n, NULL,
			    &n->snp.WaitForPacket);
}

void vnet_snp_fini(struct virtio_net *n)
{
	vnet_dev_down(n);
	event_close(n->snp.WaitForPacket);
	n->mode.State = EfiSimpleNetworkStopped;
}
