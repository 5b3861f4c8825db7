/* Pure logic on Ethernet frames for the SNP front end: the receive filters, the media
 * header, and multicast IP to MAC mapping. */
#include <ember/drivers/snp_front.h>
#include <ember/lib/str.h>

static bool is_listed(const UINT8 *dest, const EFI_SIMPLE_NETWORK_MODE *mode)
{
	UINT32 count = mode->MCastFilterCount;

	if (count > MAX_MCAST_FILTER_CNT)
		count = MAX_MCAST_FILTER_CNT;
	for (UINT32 i = 0; i < count; i++)
		if (!mem_cmp(dest, mode->MCastFilter[i].Addr, SNP_ETH_ADDR))
			return true;
	return false;
}

bool snp_frame_accepted(const UINT8 *frame, UINT32 len, const EFI_SIMPLE_NETWORK_MODE *mode)
{
	UINT32 on = mode->ReceiveFilterSetting;
	const UINT8 *dest = frame;

	if (len < SNP_ETH_HEADER)
		return false;
	if (on & EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS)
		return true;
	if (!mem_cmp(dest, mode->BroadcastAddress.Addr, SNP_ETH_ADDR))
		return (on & EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST) != 0;
	if (dest[0] & 1) /* the group bit: multicast */
		return (on & EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS_MULTICAST) ||
		       ((on & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST) && is_listed(dest, mode));
	return (on & EFI_SIMPLE_NETWORK_RECEIVE_UNICAST) &&
	       !mem_cmp(dest, mode->CurrentAddress.Addr, SNP_ETH_ADDR);
}

void snp_frame_fill_header(UINT8 *frame, const EFI_MAC_ADDRESS *dest, const EFI_MAC_ADDRESS *src,
			   UINT16 protocol)
{
	mem_copy(frame, dest->Addr, SNP_ETH_ADDR);
	mem_copy(frame + SNP_ETH_ADDR, src->Addr, SNP_ETH_ADDR);
	frame[12] = (UINT8)(protocol >> 8);
	frame[13] = (UINT8)protocol;
}

EFI_STATUS snp_frame_mcast_ip_to_mac(bool ipv6, const EFI_IP_ADDRESS *ip, EFI_MAC_ADDRESS *mac)
{
	const UINT8 *a = ipv6 ? ip->v6.Addr : ip->v4.Addr;

	mem_set(mac, 0, sizeof(*mac));
	if (ipv6) {
		/* ff00::/8; 33:33 then the address's last four bytes. */
		if (a[0] != 0xff)
			return EFI_INVALID_PARAMETER;
		mac->Addr[0] = 0x33;
		mac->Addr[1] = 0x33;
		mem_copy(mac->Addr + 2, a + 12, 4);
		return EFI_SUCCESS;
	}
	/* 224.0.0.0/4; 01:00:5e then the low 23 bits of the address. */
	if ((a[0] & 0xf0) != 0xe0)
		return EFI_INVALID_PARAMETER;
	mac->Addr[0] = 0x01;
	mac->Addr[1] = 0x00;
	mac->Addr[2] = 0x5e;
	mac->Addr[3] = a[1] & 0x7f;
	mac->Addr[4] = a[2];
	mac->Addr[5] = a[3];
	return EFI_SUCCESS;
}
