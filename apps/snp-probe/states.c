/* The state machine of SimpleNetwork and the statuses of bad arguments (UEFI 2.10, 24.1):
 * in Stopped every call but Start answers EFI_NOT_STARTED; in Started those that need an
 * initialized interface answer EFI_DEVICE_ERROR; Initialized checks the arguments. Leaves
 * the interface Initialized with no receive filters. */
#include "probe.h"

#define SNP probe_snp

/* Every call that needs an initialized interface answers want. */
static void check_uninitialized_calls(EFI_STATUS want)
{
	UINT8 frame[64] = {0};
	UINTN size = sizeof(frame), stats_size = 0;
	UINT32 interrupts;
	void *tx;
	EFI_IP_ADDRESS ip = {0};
	EFI_MAC_ADDRESS mac = {0};

	CHECK_STATUS(SNP->Reset(SNP, FALSE), want);
	CHECK_STATUS(SNP->Shutdown(SNP), want);
	CHECK_STATUS(
	    SNP->ReceiveFilters(SNP, EFI_SIMPLE_NETWORK_RECEIVE_UNICAST, 0, FALSE, 0, NULL), want);
	CHECK_STATUS(SNP->StationAddress(SNP, TRUE, NULL), want);
	CHECK_STATUS(SNP->Statistics(SNP, FALSE, &stats_size, NULL), want);
	ip.v4.Addr[0] = 224;
	CHECK_STATUS(SNP->MCastIpToMac(SNP, FALSE, &ip, &mac), want);
	CHECK_STATUS(SNP->NvData(SNP, TRUE, 0, 4, frame), want);
	CHECK_STATUS(SNP->GetStatus(SNP, &interrupts, &tx), want);
	CHECK_STATUS(SNP->Transmit(SNP, 0, 60, frame, NULL, NULL, NULL), want);
	CHECK_STATUS(SNP->Receive(SNP, NULL, &size, frame, NULL, NULL, NULL), want);
}

static void check_stopped(void)
{
	CHECK_EQ(SNP->Mode->State, EfiSimpleNetworkStopped);
	check_uninitialized_calls(EFI_NOT_STARTED);
	CHECK_STATUS(SNP->Initialize(SNP, 0, 0), EFI_NOT_STARTED);
	CHECK_STATUS(SNP->Stop(SNP), EFI_NOT_STARTED);
	CHECK_STATUS(SNP->Start(NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->Start(SNP), EFI_SUCCESS);
	CHECK_EQ(SNP->Mode->State, EfiSimpleNetworkStarted);
	CHECK_STATUS(SNP->Start(SNP), EFI_ALREADY_STARTED);
}

static void check_started(void)
{
	check_uninitialized_calls(EFI_DEVICE_ERROR);
	CHECK_STATUS(SNP->Stop(SNP), EFI_SUCCESS);
	CHECK_EQ(SNP->Mode->State, EfiSimpleNetworkStopped);
	CHECK_STATUS(SNP->Start(SNP), EFI_SUCCESS);
	CHECK_STATUS(SNP->Initialize(SNP, 0, 0), EFI_SUCCESS);
	CHECK_EQ(SNP->Mode->State, EfiSimpleNetworkInitialized);
	CHECK_STATUS(SNP->Initialize(SNP, 0, 0), EFI_DEVICE_ERROR);
	CHECK_STATUS(SNP->Start(SNP), EFI_ALREADY_STARTED);
	CHECK_STATUS(SNP->Stop(SNP), EFI_DEVICE_ERROR); /* Shutdown comes first */
	CHECK_STATUS(SNP->Shutdown(SNP), EFI_SUCCESS);
	CHECK_EQ(SNP->Mode->State, EfiSimpleNetworkStarted);
	CHECK_STATUS(SNP->Initialize(SNP, 0, 0), EFI_SUCCESS);
}

static void check_mode(void)
{
	EFI_SIMPLE_NETWORK_MODE *m = SNP->Mode;
	static const UINT8 ones[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

	CHECK_EQ(m->HwAddressSize, 6);
	CHECK_EQ(m->MediaHeaderSize, 14);
	CHECK_EQ(m->MaxPacketSize, 1500);
	CHECK_EQ(m->IfType, IF_TYPE_ETHERNET);
	CHECK(!mem_cmp(m->BroadcastAddress.Addr, ones, 6));
	CHECK(!mem_cmp(m->CurrentAddress.Addr, m->PermanentAddress.Addr, 6));
	CHECK(!(m->PermanentAddress.Addr[0] & 1));
	CHECK(m->MediaPresentSupported && m->MediaPresent);
	CHECK(m->ReceiveFilterMask & EFI_SIMPLE_NETWORK_RECEIVE_UNICAST);
	CHECK(m->ReceiveFilterMask & EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST);
	CHECK(m->MaxMCastFilterCount >= 1 && m->MaxMCastFilterCount <= MAX_MCAST_FILTER_CNT);
}

static void check_transmit_arguments(void)
{
	static UINT8 frame[1600];
	EFI_MAC_ADDRESS dest = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	UINT16 protocol = 0x0806;

	CHECK_STATUS(SNP->Transmit(SNP, 0, 60, NULL, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->Transmit(SNP, 13, 60, frame, NULL, &dest, &protocol),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->Transmit(SNP, 14, 60, frame, NULL, NULL, &protocol),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->Transmit(SNP, 14, 60, frame, NULL, &dest, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->Transmit(SNP, 0, 10, frame, NULL, NULL, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK_STATUS(SNP->Transmit(SNP, 0, 1515, frame, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
}

static void check_receive_arguments(void)
{
	UINT8 frame[1514];
	UINTN size = sizeof(frame);
	UINT32 interrupts = 0xff;
	void *tx = frame;

	CHECK_STATUS(SNP->Receive(SNP, NULL, NULL, frame, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->Receive(SNP, NULL, &size, NULL, NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	/* No filter is enabled: nothing arrives. */
	CHECK_STATUS(SNP->Receive(SNP, NULL, &size, frame, NULL, NULL, NULL), EFI_NOT_READY);
	CHECK_STATUS(SNP->GetStatus(SNP, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->GetStatus(SNP, &interrupts, &tx), EFI_SUCCESS);
	CHECK(tx == NULL);
	CHECK_EQ(interrupts & EFI_SIMPLE_NETWORK_RECEIVE_INTERRUPT, 0);
}

static void check_filters(void)
{
	EFI_MAC_ADDRESS list[MAX_MCAST_FILTER_CNT + 1] = {{{0x01, 0x00, 0x5e, 0, 0, 1}}};
	UINT32 multicast = EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST;

	CHECK_STATUS(SNP->ReceiveFilters(SNP, 0x20, 0, FALSE, 0, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->ReceiveFilters(SNP, multicast, 0, FALSE, 0, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->ReceiveFilters(SNP, multicast, 0, FALSE, MAX_MCAST_FILTER_CNT + 1, list),
		     EFI_INVALID_PARAMETER);
	list[1] = SNP->Mode->PermanentAddress; /* unicast: not a multicast filter */
	CHECK_STATUS(SNP->ReceiveFilters(SNP, multicast, 0, FALSE, 2, list), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->ReceiveFilters(SNP, multicast, 0, FALSE, 1, list), EFI_SUCCESS);
	CHECK_EQ(SNP->Mode->MCastFilterCount, 1);
	CHECK(SNP->Mode->ReceiveFilterSetting & multicast);
	CHECK_STATUS(SNP->ReceiveFilters(SNP, 0, multicast, TRUE, 0, NULL), EFI_SUCCESS);
	CHECK_EQ(SNP->Mode->MCastFilterCount, 0);
	CHECK_EQ(SNP->Mode->ReceiveFilterSetting & multicast, 0);
}

static void check_mcast_ip_to_mac(void)
{
	EFI_IP_ADDRESS ip = {0};
	EFI_MAC_ADDRESS mac;
	static const UINT8 v4[6] = {0x01, 0x00, 0x5e, 0x01, 0x82, 0x03};
	static const UINT8 v6[6] = {0x33, 0x33, 0xff, 0x00, 0x12, 0x34};

	ip.v4 = (EFI_IPv4_ADDRESS){{10, 0, 2, 15}};
	CHECK_STATUS(SNP->MCastIpToMac(SNP, FALSE, &ip, &mac), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->MCastIpToMac(SNP, FALSE, NULL, &mac), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->MCastIpToMac(SNP, FALSE, &ip, NULL), EFI_INVALID_PARAMETER);
	ip.v4 = (EFI_IPv4_ADDRESS){{224, 129, 130, 3}}; /* the top bit of 129 does not map */
	if (CHECK_STATUS(SNP->MCastIpToMac(SNP, FALSE, &ip, &mac), EFI_SUCCESS))
		CHECK(!mem_cmp(mac.Addr, v4, 6));
	mem_set(&ip, 0, sizeof(ip));
	ip.v6.Addr[0] = 0xff, ip.v6.Addr[1] = 0x02, ip.v6.Addr[11] = 1, ip.v6.Addr[12] = 0xff;
	ip.v6.Addr[14] = 0x12, ip.v6.Addr[15] = 0x34;
	if (CHECK_STATUS(SNP->MCastIpToMac(SNP, TRUE, &ip, &mac), EFI_SUCCESS))
		CHECK(!mem_cmp(mac.Addr, v6, 6));
}

static void check_addresses_and_statistics(void)
{
	EFI_MAC_ADDRESS other = {{0x52, 0x54, 0x00, 0xaa, 0xbb, 0xcc}};
	EFI_NETWORK_STATISTICS stats;
	UINTN size = 0;
	UINT8 byte;

	CHECK_STATUS(SNP->StationAddress(SNP, FALSE, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->StationAddress(SNP, FALSE, &other), EFI_SUCCESS);
	CHECK(!mem_cmp(SNP->Mode->CurrentAddress.Addr, other.Addr, 6));
	CHECK_STATUS(SNP->StationAddress(SNP, TRUE, NULL), EFI_SUCCESS);
	CHECK(!mem_cmp(SNP->Mode->CurrentAddress.Addr, SNP->Mode->PermanentAddress.Addr, 6));
	CHECK_STATUS(SNP->Statistics(SNP, FALSE, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(SNP->Statistics(SNP, FALSE, &size, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(size, sizeof(stats));
	CHECK_STATUS(SNP->Statistics(SNP, FALSE, &size, &stats), EFI_SUCCESS);
	CHECK_STATUS(SNP->Statistics(SNP, TRUE, NULL, NULL), EFI_SUCCESS);
	CHECK_STATUS(SNP->NvData(SNP, TRUE, 0, 1, &byte), EFI_UNSUPPORTED);
}

void probe_states(void)
{
	check_stopped();
	check_started();
	check_mode();
	check_transmit_arguments();
	check_receive_arguments();
	check_filters();
	check_mcast_ip_to_mac();
	check_addresses_and_statistics();
	CHECK_STATUS(SNP->Reset(SNP, FALSE), EFI_SUCCESS);
	CHECK_EQ(SNP->Mode->State, EfiSimpleNetworkInitialized);
}
