/* The SNP state machine (UEFI 2.10, 24.1): Start takes Stopped to Started, Initialize Started
 * to Initialized, Shutdown back, Stop to Stopped; each call made in a state that does not
 * allow it answers EFI_NOT_STARTED (Stopped) or EFI_DEVICE_ERROR (Started; Initialized for
 * Initialize and Stop), and Start EFI_ALREADY_STARTED once started. */
#include "snp_test.h"

static UINT8 frame[64];

/* Every call that needs an Initialized interface, answering want. Statistics and NvData
 * may answer EFI_UNSUPPORTED instead (24.1: optional functions). */
static void check_all_refused(EFI_STATUS want)
{
	EFI_MAC_ADDRESS mac = {{0}};
	EFI_IP_ADDRESS ip = {{0}};
	UINTN size = sizeof(frame), stats_size = sizeof(EFI_NETWORK_STATISTICS);
	EFI_NETWORK_STATISTICS stats;
	UINT32 interrupts;
	void *tx;

	ip.v4.Addr[0] = 224;
	/* Reset is optional (EFI_UNSUPPORTED: OVMF's VirtioNetDxe). */
	CHECK_STATUS2(snp->Reset(snp, FALSE), want, EFI_UNSUPPORTED);
	CHECK_STATUS(snp->Shutdown(snp), want);
	CHECK_STATUS(
	    snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST, 0, FALSE, 0, NULL),
	    want);
	CHECK_STATUS2(snp->StationAddress(snp, TRUE, NULL), want, EFI_UNSUPPORTED);
	CHECK_STATUS2(snp->Statistics(snp, FALSE, &stats_size, &stats), want, EFI_UNSUPPORTED);
	CHECK_STATUS(snp->MCastIpToMac(snp, FALSE, &ip, &mac), want);
	CHECK_STATUS2(snp->NvData(snp, TRUE, 0, 4, frame), want, EFI_UNSUPPORTED);
	CHECK_STATUS(snp->GetStatus(snp, &interrupts, &tx), want);
	CHECK_STATUS(snp->Transmit(snp, 0, 60, frame, NULL, NULL, NULL), want);
	CHECK_STATUS(snp->Receive(snp, NULL, &size, frame, NULL, NULL, NULL), want);
}

static void check_stopped(void)
{
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkStopped);
	CHECK_STATUS(snp->Stop(snp), EFI_NOT_STARTED);
	CHECK_STATUS(snp->Initialize(snp, 0, 0), EFI_NOT_STARTED);
	check_all_refused(EFI_NOT_STARTED);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkStopped);
}

static void check_started(void)
{
	CHECK_STATUS(snp->Start(snp), EFI_SUCCESS);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkStarted);
	CHECK_STATUS(snp->Start(snp), EFI_ALREADY_STARTED);
	check_all_refused(EFI_DEVICE_ERROR);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkStarted);
}

static void check_initialized(void)
{
	CHECK_STATUS(snp->Initialize(snp, 0, 0), EFI_SUCCESS);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkInitialized);
	CHECK_STATUS(snp->Start(snp), EFI_ALREADY_STARTED);
	/* Started but in the wrong state for these: EFI_NOT_STARTED would say it is not. */
	CHECK_STATUS_KNOWN(snp->Initialize(snp, 0, 0), EFI_DEVICE_ERROR, FW_EDK2,
			   "VirtioNetDxe answers EFI_NOT_STARTED to Initialize when initialized");
	CHECK_STATUS_KNOWN(snp->Stop(snp), EFI_DEVICE_ERROR, FW_EDK2,
			   "VirtioNetDxe answers EFI_NOT_STARTED to Stop when initialized");
	CHECK_STATUS2(snp->Reset(snp, FALSE), EFI_SUCCESS, EFI_UNSUPPORTED);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkInitialized);
}

/* The Mode of an Ethernet interface. */
static void check_mode(void)
{
	EFI_SIMPLE_NETWORK_MODE *m = snp->Mode;
	static const UINT8 ones[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

	CHECK_EQ(m->HwAddressSize, 6);
	CHECK_EQ(m->MediaHeaderSize, 14);
	CHECK_EQ(m->MaxPacketSize, 1500);
	CHECK_EQ(m->IfType, 1);
	CHECK(!mem_cmp(m->BroadcastAddress.Addr, ones, 6));
	CHECK(!mem_cmp(m->CurrentAddress.Addr, m->PermanentAddress.Addr, 6));
	CHECK(m->ReceiveFilterMask & EFI_SIMPLE_NETWORK_RECEIVE_UNICAST);
	CHECK(m->ReceiveFilterMask & EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST);
	CHECK(m->MCastFilterCount <= m->MaxMCastFilterCount);
	CHECK(m->MaxMCastFilterCount <= MAX_MCAST_FILTER_CNT);
	if (m->MediaPresentSupported)
		CHECK(m->MediaPresent); /* QEMU's link is up */
}

void snp_check_states(void)
{
	check_stopped();
	check_mode();
	check_started();
	check_initialized();
	/* Back down and up again: the device must come back from Shutdown. */
	CHECK_STATUS(snp->Shutdown(snp), EFI_SUCCESS);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkStarted);
	CHECK_STATUS(snp->Stop(snp), EFI_SUCCESS);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkStopped);
	CHECK_STATUS(snp->Start(snp), EFI_SUCCESS);
	CHECK_STATUS(snp->Initialize(snp, 0, 0), EFI_SUCCESS);
	CHECK_EQ(snp->Mode->State, EfiSimpleNetworkInitialized);
}
