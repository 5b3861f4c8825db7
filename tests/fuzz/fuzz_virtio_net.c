/* Fuzzes what the virtio-net SNP takes from the device (drivers/virtio/virtio_net_frame.c): the
 * used ring's length of a receive buffer (outside data) must give a frame inside the buffer,
 * after the virtio header, at least an Ethernet header long, or be refused; the receive
 * filters read only the frame's destination, under any filter settings and multicast list;
 * multicast IP to MAC mapping refuses non-multicast addresses and keeps the group bit. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../drivers/virtio/virtio_net.h"

#define BUF 2048

static UINT32 rd32(const uint8_t *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static void check_length(UINT32 used_len, UINT32 hdr_size)
{
	UINT32 frame_len = 0xdeadbeef;
	EFI_STATUS status = vnet_rx_frame_len(used_len, hdr_size, BUF, &frame_len);

	if (EFI_ERROR(status)) {
		if (frame_len != 0xdeadbeef)
			abort(); /* refused without a length */
		if (used_len <= BUF && used_len >= hdr_size + 14 && hdr_size <= BUF)
			abort(); /* a sound length refused */
		return;
	}
	if (frame_len < 14 || (UINT64)frame_len + hdr_size != used_len || used_len > BUF)
		abort();
}

static void check_filters(const uint8_t *data, size_t size)
{
	EFI_SIMPLE_NETWORK_MODE mode;
	/* The frame alone in an allocation of its size: ASan sees any read past it. */
	UINT32 len = size > 64 ? 64 : (UINT32)size;
	uint8_t *frame = malloc(len ? len : 1);
	bool ok;

	memset(&mode, 0, sizeof(mode));
	memcpy(frame, data, len);
	mode.ReceiveFilterSetting = size ? data[0] : 0;
	mode.MCastFilterCount = size > 1 ? data[1] : 0; /* may exceed the list: bounded */
	memset(mode.BroadcastAddress.Addr, 0xff, 6);
	memcpy(mode.CurrentAddress.Addr, "\x52\x54\x00\x12\x34\x56", 6);
	if (len >= 14 && (data[2] & 1))
		memcpy(mode.MCastFilter[1].Addr, frame, 6); /* the destination listed */
	ok = snp_frame_accepted(frame, len, &mode);
	if (len < 14 && ok)
		abort();
	if (len >= 14 && (mode.ReceiveFilterSetting & EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS) &&
	    !ok)
		abort();
	free(frame);
}

static void check_mcast(const uint8_t *data, size_t size)
{
	EFI_IP_ADDRESS ip;
	EFI_MAC_ADDRESS mac;
	bool ipv6 = size && (data[0] & 1);

	memset(&ip, 0, sizeof(ip));
	memcpy(&ip, data, size < sizeof(ip) ? size : sizeof(ip));
	if (EFI_ERROR(snp_frame_mcast_ip_to_mac(ipv6, &ip, &mac)))
		return;
	if (ipv6 ? ip.v6.Addr[0] != 0xff : (ip.v4.Addr[0] & 0xf0) != 0xe0)
		abort(); /* a unicast address mapped */
	if (!(mac.Addr[0] & 1))
		abort(); /* not a multicast MAC */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 8)
		check_length(rd32(data), rd32(data + 4) % 64);
	check_filters(data, size);
	check_mcast(data, size);
	return 0;
}
