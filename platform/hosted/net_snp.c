/* EFI_SIMPLE_NETWORK_PROTOCOL (UEFI 2.10, section 24.1) of the hosted NIC. The state
 * machine: Start takes the interface from Stopped to Started, Initialize from Started to
 * Initialized, Shutdown back to Started, Stop back to Stopped. A call the current state does
 * not allow answers EFI_NOT_STARTED when the interface is stopped and EFI_DEVICE_ERROR when
 * it is started but not initialized (Start: EFI_ALREADY_STARTED), as EDK2's SNP does.
 * Arguments are checked after the state. A transmitted buffer is the caller's again once
 * GetStatus has handed it back through TxBuf; until then it counts against NET_TX_SLOTS
 * (Transmit answers EFI_NOT_READY when all are taken). */
#include <string.h>

#include "net.h"
#include <ember/core/core.h>

#define NET_FILTERS                                                                                \
	(EFI_SIMPLE_NETWORK_RECEIVE_UNICAST | EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST |               \
	 EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST | EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS |           \
	 EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS_MULTICAST)

static struct net_nic *nic_of(EFI_SIMPLE_NETWORK_PROTOCOL *This)
{
	return This && net_nic && This == &net_nic->snp ? net_nic : NULL;
}

/* The status of a call that needs an initialized interface. */
static EFI_STATUS need_initialized(const struct net_nic *nic)
{
	if (nic->mode.State == EfiSimpleNetworkStopped)
		return EFI_NOT_STARTED;
	return nic->mode.State == EfiSimpleNetworkInitialized ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static bool mac_is_multicast(const UINT8 *mac)
{
	return mac[0] & 1;
}

bool net_snp_accepts(const struct net_nic *nic, const UINT8 *destination)
{
	UINT32 f = nic->mode.ReceiveFilterSetting;

	if (f & EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS)
		return true;
	if (!memcmp(destination, nic->mode.BroadcastAddress.Addr, NET_MAC_SIZE))
		return f & EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST;
	if (!mac_is_multicast(destination))
		return (f & EFI_SIMPLE_NETWORK_RECEIVE_UNICAST) &&
		       !memcmp(destination, nic->mode.CurrentAddress.Addr, NET_MAC_SIZE);
	if (f & EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS_MULTICAST)
		return true;
	if (!(f & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST))
		return false;
	for (UINT32 i = 0; i < nic->mode.MCastFilterCount; i++)
		if (!memcmp(destination, nic->mode.MCastFilter[i].Addr, NET_MAC_SIZE))
			return true;
	return false;
}

/* ---- Start, Stop, Initialize, Reset, Shutdown ---- */

static EFI_STATUS EFIAPI snp_start(EFI_SIMPLE_NETWORK_PROTOCOL *This)
{
	struct net_nic *nic = nic_of(This);

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (nic->mode.State != EfiSimpleNetworkStopped)
		return EFI_ALREADY_STARTED;
	nic->mode.State = EfiSimpleNetworkStarted;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_stop(EFI_SIMPLE_NETWORK_PROTOCOL *This)
{
	struct net_nic *nic = nic_of(This);

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (nic->mode.State == EfiSimpleNetworkStopped)
		return EFI_NOT_STARTED;
	if (nic->mode.State == EfiSimpleNetworkInitialized)
		return EFI_DEVICE_ERROR; /* Shutdown first */
	nic->mode.State = EfiSimpleNetworkStopped;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_initialize(EFI_SIMPLE_NETWORK_PROTOCOL *This, UINTN ExtraRxBufferSize,
					UINTN ExtraTxBufferSize)
{
	struct net_nic *nic = nic_of(This);
	EFI_TPL old;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (nic->mode.State != EfiSimpleNetworkStarted)
		return nic->mode.State == EfiSimpleNetworkStopped ? EFI_NOT_STARTED
								  : EFI_DEVICE_ERROR;
	old = tpl_raise(TPL_NOTIFY);
	net_nic_flush(nic);
	nic->mode.ReceiveFilterSetting = 0;
	nic->mode.MCastFilterCount = 0;
	nic->mode.MediaPresent = TRUE;
	nic->mode.State = EfiSimpleNetworkInitialized;
	net_nic_tick_enable(nic, true);
	tpl_restore(old);
	return EFI_SUCCESS;
}

/* Reset: what was received is gone; filters and addresses stay as Initialize left them. */
static EFI_STATUS EFIAPI snp_reset(EFI_SIMPLE_NETWORK_PROTOCOL *This, BOOLEAN ExtendedVerification)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	old = tpl_raise(TPL_NOTIFY);
	nic->rx_head = nic->rx_count = 0;
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_shutdown(EFI_SIMPLE_NETWORK_PROTOCOL *This)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	old = tpl_raise(TPL_NOTIFY);
	net_nic_tick_enable(nic, false);
	net_nic_flush(nic);
	nic->mode.ReceiveFilterSetting = 0;
	nic->mode.MCastFilterCount = 0;
	nic->mode.State = EfiSimpleNetworkStarted;
	tpl_restore(old);
	return EFI_SUCCESS;
}

/* ---- Filters and addresses ---- */

static bool mcast_list_valid(UINTN count, const EFI_MAC_ADDRESS *list)
{
	if (!count || count > MAX_MCAST_FILTER_CNT || !list)
		return false;
	for (UINTN i = 0; i < count; i++)
		if (!mac_is_multicast(list[i].Addr))
			return false;
	return true;
}

static EFI_STATUS EFIAPI snp_receive_filters(EFI_SIMPLE_NETWORK_PROTOCOL *This, UINT32 Enable,
					     UINT32 Disable, BOOLEAN ResetMCastFilter,
					     UINTN MCastFilterCnt, EFI_MAC_ADDRESS *MCastFilter)
{
	struct net_nic *nic = nic_of(This);
	bool new_list = !ResetMCastFilter && (MCastFilterCnt || MCastFilter ||
					      (Enable & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST));
	EFI_STATUS status;
	EFI_TPL old;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	if ((Enable | Disable) & ~nic->mode.ReceiveFilterMask)
		return EFI_INVALID_PARAMETER;
	if (new_list && !mcast_list_valid(MCastFilterCnt, MCastFilter))
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	nic->mode.ReceiveFilterSetting = (nic->mode.ReceiveFilterSetting | Enable) & ~Disable;
	if (ResetMCastFilter) {
		nic->mode.MCastFilterCount = 0;
		memset(nic->mode.MCastFilter, 0, sizeof(nic->mode.MCastFilter));
	} else if (new_list) {
		nic->mode.MCastFilterCount = (UINT32)MCastFilterCnt;
		memcpy(nic->mode.MCastFilter, MCastFilter, MCastFilterCnt * sizeof(*MCastFilter));
	}
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_station_address(EFI_SIMPLE_NETWORK_PROTOCOL *This, BOOLEAN Reset,
					     EFI_MAC_ADDRESS *New)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	if (Reset) {
		nic->mode.CurrentAddress = nic->mode.PermanentAddress;
		return EFI_SUCCESS;
	}
	if (!New || mac_is_multicast(New->Addr))
		return EFI_INVALID_PARAMETER;
	memset(&nic->mode.CurrentAddress, 0, sizeof(nic->mode.CurrentAddress));
	memcpy(nic->mode.CurrentAddress.Addr, New->Addr, NET_MAC_SIZE);
	return EFI_SUCCESS;
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

static EFI_STATUS EFIAPI snp_statistics(EFI_SIMPLE_NETWORK_PROTOCOL *This, BOOLEAN Reset,
					UINTN *StatisticsSize,
					EFI_NETWORK_STATISTICS *StatisticsTable)
{
	struct net_nic *nic = nic_of(This);
	EFI_NETWORK_STATISTICS s;
	EFI_STATUS status;
	UINTN size;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	if (!StatisticsSize) {
		if (!Reset)
			return EFI_INVALID_PARAMETER; /* nothing asked for */
		memset(&nic->stats, 0, sizeof(nic->stats));
		return EFI_SUCCESS;
	}
	size = *StatisticsSize;
	*StatisticsSize = sizeof(s);
	if (!StatisticsTable)
		return EFI_BUFFER_TOO_SMALL;
	statistics_read(nic, &s);
	memcpy(StatisticsTable, &s, size < sizeof(s) ? size : sizeof(s));
	if (Reset)
		memset(&nic->stats, 0, sizeof(nic->stats));
	return size < sizeof(s) ? EFI_BUFFER_TOO_SMALL : EFI_SUCCESS;
}

/* IPv4 224.0.0.0/4 maps to 01:00:5e plus the low 23 bits (RFC 1112), IPv6 ff00::/8 to
 * 33:33 plus the low 32 bits (RFC 2464). */
static EFI_STATUS EFIAPI snp_mcast_ip_to_mac(EFI_SIMPLE_NETWORK_PROTOCOL *This, BOOLEAN IPv6,
					     EFI_IP_ADDRESS *IP, EFI_MAC_ADDRESS *MAC)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;
	const UINT8 *ip;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	if (!IP || !MAC)
		return EFI_INVALID_PARAMETER;
	ip = IPv6 ? IP->v6.Addr : IP->v4.Addr;
	if (IPv6 ? ip[0] != 0xff : (ip[0] & 0xf0) != 0xe0)
		return EFI_INVALID_PARAMETER;
	memset(MAC, 0, sizeof(*MAC));
	if (IPv6) {
		MAC->Addr[0] = MAC->Addr[1] = 0x33;
		memcpy(&MAC->Addr[2], &ip[12], 4);
	} else {
		MAC->Addr[0] = 0x01, MAC->Addr[1] = 0x00, MAC->Addr[2] = 0x5e;
		MAC->Addr[3] = ip[1] & 0x7f, MAC->Addr[4] = ip[2], MAC->Addr[5] = ip[3];
	}
	return EFI_SUCCESS;
}

/* The NIC has no non-volatile storage (NvRamSize 0). */
static EFI_STATUS EFIAPI snp_nvdata(EFI_SIMPLE_NETWORK_PROTOCOL *This, BOOLEAN ReadWrite,
				    UINTN Offset, UINTN BufferSize, VOID *Buffer)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	return EFI_UNSUPPORTED;
}

/* ---- Frames ---- */

static EFI_STATUS EFIAPI snp_get_status(EFI_SIMPLE_NETWORK_PROTOCOL *This, UINT32 *InterruptStatus,
					VOID **TxBuf)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	if (!InterruptStatus && !TxBuf)
		return EFI_INVALID_PARAMETER;
	net_nic_pump(nic);
	old = tpl_raise(TPL_NOTIFY);
	if (InterruptStatus) {
		*InterruptStatus = nic->interrupts;
		nic->interrupts = 0;
	}
	if (TxBuf) {
		*TxBuf = nic->tx_count ? nic->tx[nic->tx_head] : NULL;
		if (nic->tx_count) {
			nic->tx_head = (nic->tx_head + 1) % NET_TX_SLOTS;
			nic->tx_count--;
		}
	}
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS transmit_check(const struct net_nic *nic, UINTN HeaderSize, UINTN BufferSize,
				 VOID *Buffer, EFI_MAC_ADDRESS *DestAddr, UINT16 *Protocol)
{
	if (!Buffer)
		return EFI_INVALID_PARAMETER;
	if (HeaderSize && (HeaderSize != nic->mode.MediaHeaderSize || !DestAddr || !Protocol))
		return EFI_INVALID_PARAMETER;
	if (BufferSize < nic->mode.MediaHeaderSize)
		return EFI_BUFFER_TOO_SMALL;
	if (BufferSize > nic->mode.MediaHeaderSize + nic->mode.MaxPacketSize)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* HeaderSize != 0: the media header is ours to fill (24.1.14), from DestAddr, SrcAddr (the
 * current address when NULL) and Protocol. */
static void fill_header(const struct net_nic *nic, UINT8 *frame, const EFI_MAC_ADDRESS *src,
			const EFI_MAC_ADDRESS *dest, UINT16 protocol)
{
	memcpy(frame, dest->Addr, NET_MAC_SIZE);
	memcpy(frame + NET_MAC_SIZE, (src ? src : &nic->mode.CurrentAddress)->Addr, NET_MAC_SIZE);
	frame[12] = (UINT8)(protocol >> 8);
	frame[13] = (UINT8)protocol;
}

static EFI_STATUS EFIAPI snp_transmit(EFI_SIMPLE_NETWORK_PROTOCOL *This, UINTN HeaderSize,
				      UINTN BufferSize, VOID *Buffer, EFI_MAC_ADDRESS *SrcAddr,
				      EFI_MAC_ADDRESS *DestAddr, UINT16 *Protocol)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	status = transmit_check(nic, HeaderSize, BufferSize, Buffer, DestAddr, Protocol);
	if (EFI_ERROR(status))
		return status;
	old = tpl_raise(TPL_NOTIFY);
	if (nic->tx_count == NET_TX_SLOTS) {
		tpl_restore(old);
		return EFI_NOT_READY; /* the caller recycles buffers with GetStatus */
	}
	if (HeaderSize)
		fill_header(nic, Buffer, SrcAddr, DestAddr, *Protocol);
	nic->tx[(nic->tx_head + nic->tx_count++) % NET_TX_SLOTS] = Buffer;
	nic->interrupts |= EFI_SIMPLE_NETWORK_TRANSMIT_INTERRUPT;
	net_nic_send(nic, Buffer, BufferSize);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static void copy_mac(EFI_MAC_ADDRESS *out, const UINT8 *mac)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->Addr, mac, NET_MAC_SIZE);
}

/* Hands the first queued frame to the caller: EFI_NOT_READY when there is none,
 * EFI_BUFFER_TOO_SMALL (with the size it needs, the frame kept) when it does not fit. */
static EFI_STATUS receive_frame(struct net_nic *nic, UINTN *HeaderSize, UINTN *BufferSize,
				VOID *Buffer, EFI_MAC_ADDRESS *SrcAddr, EFI_MAC_ADDRESS *DestAddr,
				UINT16 *Protocol)
{
	struct net_frame *f = net_nic_peek(nic);

	if (!f)
		return EFI_NOT_READY;
	if (*BufferSize < f->length) {
		*BufferSize = f->length;
		return EFI_BUFFER_TOO_SMALL;
	}
	memcpy(Buffer, f->data, f->length);
	*BufferSize = f->length;
	if (HeaderSize)
		*HeaderSize = nic->mode.MediaHeaderSize;
	if (DestAddr)
		copy_mac(DestAddr, f->data);
	if (SrcAddr)
		copy_mac(SrcAddr, f->data + NET_MAC_SIZE);
	if (Protocol)
		*Protocol = (UINT16)(f->data[12] << 8 | f->data[13]);
	net_nic_pop(nic);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_receive(EFI_SIMPLE_NETWORK_PROTOCOL *This, UINTN *HeaderSize,
				     UINTN *BufferSize, VOID *Buffer, EFI_MAC_ADDRESS *SrcAddr,
				     EFI_MAC_ADDRESS *DestAddr, UINT16 *Protocol)
{
	struct net_nic *nic = nic_of(This);
	EFI_STATUS status;
	EFI_TPL old;

	if (!nic)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(status = need_initialized(nic)))
		return status;
	if (!BufferSize || !Buffer)
		return EFI_INVALID_PARAMETER;
	if (!nic->rx_count)
		net_nic_pump(nic);
	old = tpl_raise(TPL_NOTIFY);
	status = receive_frame(nic, HeaderSize, BufferSize, Buffer, SrcAddr, DestAddr, Protocol);
	tpl_restore(old);
	return status;
}

/* ---- The protocol ---- */

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

void net_snp_init(struct net_nic *nic, const UINT8 mac[NET_MAC_SIZE])
{
	EFI_SIMPLE_NETWORK_MODE *m = &nic->mode;

	nic->snp = snp_template;
	nic->snp.Mode = m;
	m->State = EfiSimpleNetworkStopped;
	m->HwAddressSize = NET_MAC_SIZE;
	m->MediaHeaderSize = NET_HEADER_SIZE;
	m->MaxPacketSize = NET_MTU;
	m->ReceiveFilterMask = NET_FILTERS;
	m->MaxMCastFilterCount = MAX_MCAST_FILTER_CNT;
	copy_mac(&m->PermanentAddress, mac);
	m->CurrentAddress = m->PermanentAddress;
	memset(m->BroadcastAddress.Addr, 0xff, NET_MAC_SIZE);
	m->IfType = IF_TYPE_ETHERNET;
	m->MacAddressChangeable = TRUE;
	m->MultipleTxSupported = TRUE;
	m->MediaPresentSupported = TRUE;
	m->MediaPresent = TRUE;
}
