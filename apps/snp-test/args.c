/* Argument checks of an Initialized SNP (UEFI 2.10, 24.1.7-24.1.14): receive filters outside
 * the mask or with a bad multicast list, multicast IP to MAC for IPv4 and IPv6, the station
 * address, Transmit's header and size rules, Receive with missing arguments and nothing
 * waiting. */
#include "snp_test.h"

static UINT8 frame[1600];

static void check_filters(void)
{
	UINT32 mask = snp->Mode->ReceiveFilterMask;
	EFI_MAC_ADDRESS list[2] = {{{0x01, 0x00, 0x5e, 0x00, 0x00, 0x01}},
				   {{0x02, 0x00, 0x00, 0x00, 0x00, 0x01}}};

	CHECK_STATUS(snp->ReceiveFilters(snp, 0x80, 0, FALSE, 0, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->ReceiveFilters(snp, 0, 0x80, FALSE, 0, NULL), EFI_INVALID_PARAMETER);
	if (!(mask & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST))
		return;
	/* Multicast being enabled: a list of valid multicast addresses, no longer than the
	 * mode allows. */
	CHECK_STATUS(
	    snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST, 0, FALSE, 1, NULL),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST, 0, FALSE, 2, list),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST, 0, FALSE,
					 snp->Mode->MaxMCastFilterCount + 1, list),
		     EFI_INVALID_PARAMETER);
	if (!CHECK_STATUS(
		snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST, 0, FALSE, 1, list),
		EFI_SUCCESS))
		return;
	CHECK(snp->Mode->ReceiveFilterSetting & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST);
	CHECK_EQ(snp->Mode->MCastFilterCount, 1);
	CHECK(!mem_cmp(snp->Mode->MCastFilter[0].Addr, list[0].Addr, 6));
	CHECK_STATUS(
	    snp->ReceiveFilters(snp, 0, EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST, TRUE, 0, NULL),
	    EFI_SUCCESS);
	CHECK(!(snp->Mode->ReceiveFilterSetting & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST));
	CHECK_EQ(snp->Mode->MCastFilterCount, 0);
}

static bool mac_is(const EFI_MAC_ADDRESS *mac, UINT8 a, UINT8 b, UINT8 c, UINT8 d, UINT8 e, UINT8 f)
{
	const UINT8 want[6] = {a, b, c, d, e, f};

	return !mem_cmp(mac->Addr, want, 6);
}

static void check_mcast_ip_to_mac(void)
{
	EFI_IP_ADDRESS ip = {{0}};
	EFI_MAC_ADDRESS mac;

	ip.v4 = (EFI_IPv4_ADDRESS){{239, 129, 2, 3}}; /* the top bit of the second byte is lost */
	if (CHECK_STATUS(snp->MCastIpToMac(snp, FALSE, &ip, &mac), EFI_SUCCESS))
		CHECK(mac_is(&mac, 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03));
	ip.v4 = (EFI_IPv4_ADDRESS){{224, 0, 0, 251}};
	if (CHECK_STATUS(snp->MCastIpToMac(snp, FALSE, &ip, &mac), EFI_SUCCESS))
		CHECK(mac_is(&mac, 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb));
	ip.v6 =
	    (EFI_IPv6_ADDRESS){{0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0x00, 0x12, 0x34}};
	if (CHECK_STATUS(snp->MCastIpToMac(snp, TRUE, &ip, &mac), EFI_SUCCESS))
		CHECK(mac_is(&mac, 0x33, 0x33, 0xff, 0x00, 0x12, 0x34));
	ip.v4 = (EFI_IPv4_ADDRESS){{10, 0, 2, 2}};
	CHECK_STATUS(snp->MCastIpToMac(snp, FALSE, &ip, &mac), EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->MCastIpToMac(snp, FALSE, NULL, &mac), EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->MCastIpToMac(snp, FALSE, &ip, NULL), EFI_INVALID_PARAMETER);
}

static void check_station_address(void)
{
	EFI_MAC_ADDRESS other = snp->Mode->PermanentAddress;

	other.Addr[5] ^= 1;
	/* A new address: taken when MacAddressChangeable, else EFI_UNSUPPORTED (24.1.8). */
	if (snp->Mode->MacAddressChangeable) {
		CHECK_STATUS(snp->StationAddress(snp, FALSE, &other), EFI_SUCCESS);
		CHECK(!mem_cmp(snp->Mode->CurrentAddress.Addr, other.Addr, 6));
		CHECK_STATUS(snp->StationAddress(snp, TRUE, NULL), EFI_SUCCESS);
	} else {
		CHECK_STATUS(snp->StationAddress(snp, FALSE, &other), EFI_UNSUPPORTED);
		CHECK_STATUS2(snp->StationAddress(snp, TRUE, NULL), EFI_SUCCESS, EFI_UNSUPPORTED);
	}
	CHECK(!mem_cmp(snp->Mode->CurrentAddress.Addr, snp->Mode->PermanentAddress.Addr, 6));
}

static void check_transmit(void)
{
	EFI_MAC_ADDRESS dest = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	UINT16 protocol = 0x88b5; /* IEEE local experimental */
	UINTN max = snp->Mode->MediaHeaderSize + snp->Mode->MaxPacketSize;

	CHECK_STATUS(snp->Transmit(snp, 0, 60, NULL, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->Transmit(snp, 13, 60, frame, NULL, &dest, &protocol),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->Transmit(snp, 14, 60, frame, NULL, NULL, &protocol),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->Transmit(snp, 14, 60, frame, NULL, &dest, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->Transmit(snp, 0, 10, frame, NULL, NULL, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK_STATUS(snp->Transmit(snp, 0, max + 1, frame, NULL, NULL, NULL),
		     EFI_INVALID_PARAMETER);
}

/* Nothing waits once whatever arrived is drained (no filter is enabled yet, but a driver
 * that leaves filtering to the device may still hand frames out). */
static void check_receive(void)
{
	UINTN size = sizeof(frame), header;
	EFI_STATUS status = EFI_SUCCESS;

	CHECK_STATUS(snp->Receive(snp, NULL, NULL, frame, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(snp->Receive(snp, NULL, &size, NULL, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	for (int i = 0; i < 100 && status == EFI_SUCCESS; i++) {
		size = sizeof(frame);
		status = snp->Receive(snp, &header, &size, frame, NULL, NULL, NULL);
	}
	CHECK_STATUS(status, EFI_NOT_READY);
}

void snp_check_arguments(void)
{
	check_filters();
	check_mcast_ip_to_mac();
	check_station_address();
	check_transmit();
	check_receive();
}
