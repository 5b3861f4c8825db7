/* The hosted NIC (`ember-run --net user`): a handle with EFI_SIMPLE_NETWORK_PROTOCOL
 * (net_snp.c) and the device path VenHw(EMBER_HOSTED_NET_GUID, 0)/MAC(address, 1), wired
 * to the user-mode network (net_slirp.c).
 *
 * Frames from the network wait in a bounded queue for Receive; when it is full, new ones
 * are dropped, as a NIC drops them when its receive ring is full. The network runs when
 * the NIC is used (Transmit, Receive, GetStatus, a check of WaitForPacket) and on a
 * periodic timer while the NIC is initialized, so a program that only waits on
 * WaitForPacket, or on anything else, sees replies and TCP retransmissions go on. All of
 * it runs at TPL_NOTIFY: libslirp and libc are never entered twice, and the timer's
 * notification (TPL_CALLBACK) never interrupts a call into them. */
#define LOG_PREFIX "net: "
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosted.h"
#include "net.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>

#define NET_TICK_100NS 10000 /* the periodic pump: every millisecond, the timer's tick */

struct net_nic *net_nic;

struct net_frame *net_nic_peek(struct net_nic *nic)
{
	return nic->rx_count ? &nic->rx[nic->rx_head] : NULL;
}

void net_nic_pop(struct net_nic *nic)
{
	nic->rx_head = (nic->rx_head + 1) % NET_RX_SLOTS;
	nic->rx_count--;
}

void net_nic_flush(struct net_nic *nic)
{
	nic->rx_head = nic->rx_count = 0;
	nic->tx_head = nic->tx_count = 0;
	nic->front.interrupts = 0;
}

void net_nic_pump(struct net_nic *nic)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	net_slirp_poll();
	tpl_restore(old);
}

void net_nic_send(struct net_nic *nic, const UINT8 *frame, size_t length)
{
	nic->stats.TxTotalFrames++;
	nic->stats.TxGoodFrames++;
	nic->stats.TxTotalBytes += length;
	if (!memcmp(frame, nic->front.mode.BroadcastAddress.Addr, NET_MAC_SIZE))
		nic->stats.TxBroadcastFrames++;
	else if (frame[0] & 1)
		nic->stats.TxMulticastFrames++;
	else
		nic->stats.TxUnicastFrames++;
	net_slirp_send(frame, length);
}

static void net_count_received(struct net_nic *nic, const UINT8 *frame, size_t length)
{
	nic->stats.RxGoodFrames++;
	nic->stats.RxTotalBytes += length;
	if (!memcmp(frame, nic->front.mode.BroadcastAddress.Addr, NET_MAC_SIZE))
		nic->stats.RxBroadcastFrames++;
	else if (frame[0] & 1)
		nic->stats.RxMulticastFrames++;
	else
		nic->stats.RxUnicastFrames++;
}

/* A frame from the network: queued when the NIC is initialized, the filters take it and
 * there is room; WaitForPacket is signalled. */
static void net_nic_deliver(const UINT8 *frame, size_t length)
{
	struct net_nic *nic = net_nic;
	struct net_frame *slot;

	if (nic->front.mode.State != EfiSimpleNetworkInitialized)
		return; /* a NIC that is not up receives nothing */
	nic->stats.RxTotalFrames++;
	if (length < NET_HEADER_SIZE || length > NET_FRAME_MAX) {
		nic->stats.RxUndersizeFrames += length < NET_HEADER_SIZE;
		nic->stats.RxOversizeFrames += length > NET_FRAME_MAX;
		return;
	}
	if (!snp_frame_accepted(frame, (UINT32)length, &nic->front.mode))
		return;
	if (nic->rx_count == NET_RX_SLOTS) {
		nic->stats.RxDroppedFrames++;
		return;
	}
	slot = &nic->rx[(nic->rx_head + nic->rx_count++) % NET_RX_SLOTS];
	slot->length = (UINT16)length;
	memcpy(slot->data, frame, length);
	net_count_received(nic, frame, length);
	nic->front.interrupts |= EFI_SIMPLE_NETWORK_RECEIVE_INTERRUPT;
	event_signal(nic->front.snp.WaitForPacket);
}

static void EFIAPI net_nic_tick(EFI_EVENT event, void *context)
{
	net_nic_pump(context);
}

void net_nic_tick_enable(struct net_nic *nic, bool on)
{
	event_set_timer(nic->tick, on ? TimerPeriodic : TimerCancel, NET_TICK_100NS);
}

static void net_path_init(struct net_path *path, const UINT8 mac[NET_MAC_SIZE])
{
	static const EFI_GUID vendor = EMBER_HOSTED_NET_GUID;

	dp_set_node(&path->vendor.Header, HARDWARE_DEVICE_PATH, HW_VENDOR_DP,
		    sizeof(path->vendor) + sizeof(path->index));
	path->vendor.Guid = vendor;
	path->index = 0;
	dp_set_node(&path->mac.Header, MESSAGING_DEVICE_PATH, MSG_MAC_ADDR_DP, sizeof(path->mac));
	memset(&path->mac.MacAddress, 0, sizeof(path->mac.MacAddress));
	memcpy(path->mac.MacAddress.Addr, mac, NET_MAC_SIZE);
	path->mac.IfType = IF_TYPE_ETHERNET;
	dp_set_end(&path->end);
}

static _Noreturn void net_attach_failed(const char *what, EFI_STATUS status)
{
	fprintf(stderr, "ember-run: --net: %s: %s\n", what, efi_status_name(status));
	exit(2);
}

void hosted_net_attach(void)
{
	struct net_nic *nic;
	EFI_STATUS status;

	if (!net_options.enabled)
		return;
	nic = net_nic = pool_alloc(sizeof(*nic));
	if (!nic || !(nic->rx = calloc(NET_RX_SLOTS, sizeof(*nic->rx))))
		net_attach_failed("no memory for the NIC", EFI_OUT_OF_RESOURCES);
	status = net_snp_init(nic, net_options.mac);
	net_path_init(&nic->path, net_options.mac);
	if (!EFI_ERROR(status))
		status = event_create(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, net_nic_tick,
				      nic, NULL, &nic->tick);
	if (EFI_ERROR(status))
		net_attach_failed("cannot create its events", status);
	if (!net_slirp_start(net_nic_deliver))
		exit(2);
	status = protocol_install_multiple(&nic->handle, &efi_simple_network_protocol_guid,
					   &nic->front.snp, &efi_device_path_protocol_guid,
					   &nic->path.vendor.Header, NULL);
	if (EFI_ERROR(status))
		net_attach_failed("cannot install its SimpleNetwork", status);
	log_debug("NIC %02x:%02x:%02x:%02x:%02x:%02x on the user network\n", net_options.mac[0],
		  net_options.mac[1], net_options.mac[2], net_options.mac[3], net_options.mac[4],
		  net_options.mac[5]);
}
