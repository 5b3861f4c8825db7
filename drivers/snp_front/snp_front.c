/* EFI_SIMPLE_NETWORK_PROTOCOL's entry points over a driver's snp_front_ops (UEFI 2.10, 24.1;
 * the states and locking are described in include/ember/drivers/snp_front.h). Receive
 * filters are applied in software (snp_frame_accepted), so all five filter bits and a
 * multicast list of MAX_MCAST_FILTER_CNT work whatever the device delivers. NVRAM is not
 * kept (NvRamSize 0): NvData answers EFI_UNSUPPORTED, as 24.1 allows. */
#include <ember/core/core.h>
#include <ember/drivers/snp_front.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define ALL_FILTERS                                                                                \
	(EFI_SIMPLE_NETWORK_RECEIVE_UNICAST | EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST |               \
	 EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST | EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS |           \
	 EFI_SIMPLE_NETWORK_RECEIVE_PROMISCUOUS_MULTICAST)

static struct snp_front *front_of(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	return container_of(this, struct snp_front, snp);
}

/* The status of a call that needs an Initialized interface. */
static EFI_STATUS need_initialized(const struct snp_front *f)
{
	if (f->mode.State == EfiSimpleNetworkStopped)
		return EFI_NOT_STARTED;
	if (f->mode.State != EfiSimpleNetworkInitialized)
		return EFI_DEVICE_ERROR;
	return EFI_SUCCESS;
}

/* Each entry point: NULL This first, then the lock, then the state. */
#define ENTER(this, f, old)                                                                        \
	do {                                                                                       \
		if (!(this))                                                                       \
			return EFI_INVALID_PARAMETER;                                              \
		(f) = front_of(this);                                                              \
		(old) = tpl_raise((f)->lock_tpl);                                                  \
	} while (0)

static EFI_STATUS EFIAPI snp_start(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	EFI_STATUS status = EFI_SUCCESS;
	struct snp_front *f;
	EFI_TPL old;

	ENTER(this, f, old);
	if (f->mode.State != EfiSimpleNetworkStopped)
		status = EFI_ALREADY_STARTED;
	else
		f->mode.State = EfiSimpleNetworkStarted;
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI snp_stop(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	EFI_STATUS status = EFI_SUCCESS;
	struct snp_front *f;
	EFI_TPL old;

	ENTER(this, f, old);
	if (f->mode.State == EfiSimpleNetworkStopped)
		status = EFI_NOT_STARTED;
	else if (f->mode.State != EfiSimpleNetworkStarted)
		status = EFI_DEVICE_ERROR; /* Shutdown first */
	else
		f->mode.State = EfiSimpleNetworkStopped;
	tpl_restore(old);
	return status;
}

/* The extra buffer sizes are hints for drivers that pre-allocate per caller; Ember's
 * buffers are fixed. */
static EFI_STATUS EFIAPI snp_initialize(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN extra_rx,
					UINTN extra_tx)
{
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;

	ENTER(this, f, old);
	if (f->mode.State == EfiSimpleNetworkStopped)
		status = EFI_NOT_STARTED;
	else if (f->mode.State == EfiSimpleNetworkInitialized)
		status = EFI_DEVICE_ERROR;
	else
		status = EFI_ERROR(f->ops->up(f)) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
	if (!EFI_ERROR(status)) {
		f->interrupts = 0;
		f->mode.State = EfiSimpleNetworkInitialized;
		f->mode.MediaPresent = f->ops->link_up(f);
	}
	tpl_restore(old);
	return status;
}

/* What was received is dropped; filters and addresses stay. */
static EFI_STATUS EFIAPI snp_reset(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN extended)
{
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (!EFI_ERROR(status)) {
		f->ops->down(f);
		f->interrupts = 0;
		if (EFI_ERROR(f->ops->up(f))) {
			f->mode.State = EfiSimpleNetworkStarted; /* the device is gone */
			status = EFI_DEVICE_ERROR;
		}
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI snp_shutdown(EFI_SIMPLE_NETWORK_PROTOCOL *this)
{
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (!EFI_ERROR(status)) {
		f->ops->down(f);
		f->mode.State = EfiSimpleNetworkStarted;
		f->mode.ReceiveFilterSetting = 0;
		f->mode.MCastFilterCount = 0;
		mem_set(f->mode.MCastFilter, 0, sizeof(f->mode.MCastFilter));
	}
	tpl_restore(old);
	return status;
}

/* 24.1.7's list: bits outside the mask; multicast being enabled (set in Enable, not in
 * Disable, the list not being reset) with no list, a list longer than the mode allows, or an
 * address without the group bit. A list given otherwise must still be a valid one. */
static EFI_STATUS check_filters(const struct snp_front *f, UINT32 enable, UINT32 disable,
				bool reset, UINTN count, const EFI_MAC_ADDRESS *list)
{
	bool enabling = (enable & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST) &&
			!(disable & EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST);

	if ((enable | disable) & ~f->mode.ReceiveFilterMask)
		return EFI_INVALID_PARAMETER;
	if (reset || (!enabling && !count && !list))
		return EFI_SUCCESS;
	if (!count || count > f->mode.MaxMCastFilterCount || !list)
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
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (!EFI_ERROR(status))
		status = check_filters(f, enable, disable, reset_mcast, count, list);
	if (!EFI_ERROR(status)) {
		f->mode.ReceiveFilterSetting = (f->mode.ReceiveFilterSetting | enable) & ~disable;
		if (reset_mcast || count) {
			mem_set(f->mode.MCastFilter, 0, sizeof(f->mode.MCastFilter));
			f->mode.MCastFilterCount = reset_mcast ? 0 : (UINT32)count;
		}
		if (!reset_mcast && count)
			mem_copy(f->mode.MCastFilter, list, count * sizeof(*list));
	}
	tpl_restore(old);
	return status;
}

/* Resetting to the permanent address always works; a new one only where the mode says
 * the address can change (the filters compare with CurrentAddress). */
static EFI_STATUS EFIAPI snp_station_address(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN reset,
					     EFI_MAC_ADDRESS *new_address)
{
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (EFI_ERROR(status) || reset) {
		if (!EFI_ERROR(status))
			f->mode.CurrentAddress = f->mode.PermanentAddress;
	} else if (!new_address) {
		status = EFI_INVALID_PARAMETER;
	} else if (!f->mode.MacAddressChangeable) {
		status = EFI_UNSUPPORTED;
	} else if (new_address->Addr[0] & 1) {
		status = EFI_INVALID_PARAMETER; /* a group address names no station */
	} else {
		mem_set(&f->mode.CurrentAddress, 0, sizeof(f->mode.CurrentAddress));
		mem_copy(f->mode.CurrentAddress.Addr, new_address->Addr, SNP_ETH_ADDR);
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI snp_statistics(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN reset,
					UINTN *size, EFI_NETWORK_STATISTICS *table)
{
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (!EFI_ERROR(status))
		status = f->ops->statistics ? f->ops->statistics(f, reset, size, table)
					    : EFI_UNSUPPORTED;
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI snp_mcast_ip_to_mac(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN ipv6,
					     EFI_IP_ADDRESS *ip, EFI_MAC_ADDRESS *mac)
{
	EFI_STATUS status;

	if (!this)
		return EFI_INVALID_PARAMETER;
	status = need_initialized(front_of(this));
	if (EFI_ERROR(status))
		return status;
	if (!ip || !mac)
		return EFI_INVALID_PARAMETER;
	return snp_frame_mcast_ip_to_mac(ipv6, ip, mac);
}

static EFI_STATUS EFIAPI snp_nvdata(EFI_SIMPLE_NETWORK_PROTOCOL *this, BOOLEAN read_write,
				    UINTN offset, UINTN size, VOID *buffer)
{
	EFI_STATUS status;

	if (!this)
		return EFI_INVALID_PARAMETER;
	status = need_initialized(front_of(this));
	return EFI_ERROR(status) ? status : EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI snp_get_status(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINT32 *interrupts,
					VOID **tx_buf)
{
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;
	UINT32 len;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (!EFI_ERROR(status) && !interrupts && !tx_buf)
		status = EFI_INVALID_PARAMETER; /* nothing asked for */
	if (!EFI_ERROR(status)) {
		f->ops->poll(f);
		f->mode.MediaPresent = f->ops->link_up(f);
		if (interrupts) {
			if (f->ops->peek(f, &len))
				f->interrupts |= EFI_SIMPLE_NETWORK_RECEIVE_INTERRUPT;
			*interrupts = f->interrupts;
			f->interrupts = 0; /* reading clears them (24.1.12) */
		}
		if (tx_buf)
			*tx_buf = f->ops->take_sent(f);
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS check_transmit(const struct snp_front *f, UINTN header_size, UINTN size,
				 const void *buffer, const EFI_MAC_ADDRESS *dest,
				 const UINT16 *protocol)
{
	if (!buffer)
		return EFI_INVALID_PARAMETER;
	if (header_size && (header_size != f->mode.MediaHeaderSize || !dest || !protocol))
		return EFI_INVALID_PARAMETER;
	if (size < f->mode.MediaHeaderSize)
		return EFI_BUFFER_TOO_SMALL;
	if (size > f->mode.MediaHeaderSize + f->mode.MaxPacketSize)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* With HeaderSize set, the media header is written into the caller's buffer (24.1.13). */
static EFI_STATUS EFIAPI snp_transmit(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN header_size,
				      UINTN size, VOID *buffer, EFI_MAC_ADDRESS *src,
				      EFI_MAC_ADDRESS *dest, UINT16 *protocol)
{
	struct snp_front *f;
	EFI_STATUS status;
	EFI_TPL old;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (!EFI_ERROR(status))
		status = check_transmit(f, header_size, size, buffer, dest, protocol);
	if (!EFI_ERROR(status) && header_size)
		snp_frame_fill_header(buffer, dest, src ? src : &f->mode.CurrentAddress, *protocol);
	if (!EFI_ERROR(status))
		status = f->ops->send(f, buffer, (UINT32)size, buffer);
	tpl_restore(old);
	return status;
}

/* Hands the waiting frame out; EFI_BUFFER_TOO_SMALL keeps it for a bigger buffer. */
static EFI_STATUS deliver(struct snp_front *f, const UINT8 *frame, UINT32 len, UINTN *header_size,
			  UINTN *size, UINT8 *buffer, EFI_MAC_ADDRESS *src, EFI_MAC_ADDRESS *dest,
			  UINT16 *protocol)
{
	if (*size < len) {
		*size = len;
		return EFI_BUFFER_TOO_SMALL;
	}
	mem_copy(buffer, frame, len);
	*size = len;
	if (header_size)
		*header_size = SNP_ETH_HEADER;
	if (dest) {
		mem_set(dest, 0, sizeof(*dest));
		mem_copy(dest->Addr, frame, SNP_ETH_ADDR);
	}
	if (src) {
		mem_set(src, 0, sizeof(*src));
		mem_copy(src->Addr, frame + SNP_ETH_ADDR, SNP_ETH_ADDR);
	}
	if (protocol)
		*protocol = (UINT16)(frame[12] << 8 | frame[13]);
	f->ops->pop(f);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI snp_receive(EFI_SIMPLE_NETWORK_PROTOCOL *this, UINTN *header_size,
				     UINTN *size, VOID *buffer, EFI_MAC_ADDRESS *src,
				     EFI_MAC_ADDRESS *dest, UINT16 *protocol)
{
	struct snp_front *f;
	const UINT8 *frame = NULL;
	EFI_STATUS status;
	EFI_TPL old;
	UINT32 len = 0;

	ENTER(this, f, old);
	status = need_initialized(f);
	if (!EFI_ERROR(status) && (!size || !buffer))
		status = EFI_INVALID_PARAMETER;
	if (!EFI_ERROR(status)) {
		frame = f->ops->peek(f, &len);
		if (!frame) {
			f->ops->poll(f);
			frame = f->ops->peek(f, &len);
		}
		status = frame ? EFI_SUCCESS : EFI_NOT_READY;
	}
	if (!EFI_ERROR(status))
		status = deliver(f, frame, len, header_size, size, buffer, src, dest, protocol);
	tpl_restore(old);
	return status;
}

/* WaitForPacket: signalled while a frame the filters accept is waiting. */
static void EFIAPI wait_for_packet(EFI_EVENT event, void *context)
{
	struct snp_front *f = context;
	UINT32 len;

	if (f->mode.State != EfiSimpleNetworkInitialized)
		return;
	f->ops->poll(f);
	if (f->ops->peek(f, &len))
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

EFI_STATUS snp_front_init(struct snp_front *f, const struct snp_front_ops *ops, EFI_TPL lock_tpl)
{
	EFI_SIMPLE_NETWORK_MODE *m = &f->mode;

	f->snp = snp_template;
	f->snp.Mode = m;
	f->ops = ops;
	f->lock_tpl = lock_tpl;
	f->interrupts = 0;
	m->State = EfiSimpleNetworkStopped;
	m->HwAddressSize = SNP_ETH_ADDR;
	m->MediaHeaderSize = SNP_ETH_HEADER;
	m->MaxPacketSize = SNP_ETH_MTU;
	m->ReceiveFilterMask = ALL_FILTERS;
	m->MaxMCastFilterCount = MAX_MCAST_FILTER_CNT;
	mem_set(m->BroadcastAddress.Addr, 0xff, SNP_ETH_ADDR);
	m->IfType = IF_TYPE_ETHERNET;
	m->MultipleTxSupported = TRUE;
	return event_create(EVT_NOTIFY_WAIT, lock_tpl, wait_for_packet, f, NULL,
			    &f->snp.WaitForPacket);
}

void snp_front_fini(struct snp_front *f)
{
	if (f->mode.State == EfiSimpleNetworkInitialized)
		f->ops->down(f);
	event_close(f->snp.WaitForPacket);
	f->mode.State = EfiSimpleNetworkStopped;
}
