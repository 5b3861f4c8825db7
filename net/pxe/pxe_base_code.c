/* EFI_PXE_BASE_CODE_PROTOCOL (UEFI 2.10, 24.3), the subset loaders use: Start, Stop, Dhcp,
 * Mtftp (TFTP file size and read), UdpWrite and UdpRead, SetStationIp, and the Mode with
 * the DHCP packets of the boot. Discover (PXE boot servers), multicast TFTP, filters, Arp
 * and the other Set* calls answer EFI_UNSUPPORTED. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include <ember/net/tftp.h>
#include "pxe.h"

#define UDP_READ_WAIT_NS 100000000ull

/* The device behind This, or NULL when This is not one of ours. */
static struct pxe_dev *pxe_from(EFI_PXE_BASE_CODE_PROTOCOL *this)
{
	struct pxe_dev *d;

	if (!this || !mem_is_allocated(this, sizeof(*this)))
		return NULL;
	d = container_of(this, struct pxe_dev, pxe);
	return d->signature == PXE_SIGNATURE ? d : NULL;
}

/* The device, when This is ours and started; *status says why not. */
static struct pxe_dev *pxe_started(EFI_PXE_BASE_CODE_PROTOCOL *this, EFI_STATUS *status)
{
	struct pxe_dev *d = pxe_from(this);

	*status = !d ? EFI_INVALID_PARAMETER : !d->mode.Started ? EFI_NOT_STARTED : EFI_SUCCESS;
	return EFI_ERROR(*status) ? NULL : d;
}

static EFI_STATUS EFIAPI pxe_bc_start(EFI_PXE_BASE_CODE_PROTOCOL *this, BOOLEAN use_ipv6)
{
	struct pxe_dev *d = pxe_from(this);
	EFI_STATUS status;

	if (!d)
		return EFI_INVALID_PARAMETER;
	if (use_ipv6)
		return EFI_UNSUPPORTED;
	if (d->mode.Started)
		return EFI_ALREADY_STARTED;
	status = pxe_link_up(d);
	if (!EFI_ERROR(status))
		d->mode.Started = true;
	return status;
}

static EFI_STATUS EFIAPI pxe_bc_stop(EFI_PXE_BASE_CODE_PROTOCOL *this)
{
	EFI_STATUS status;
	struct pxe_dev *d = pxe_started(this, &status);

	if (d)
		d->mode.Started = false;
	return status;
}

static EFI_STATUS EFIAPI pxe_bc_dhcp(EFI_PXE_BASE_CODE_PROTOCOL *this, BOOLEAN sort_offers)
{
	EFI_STATUS status;
	struct pxe_dev *d = pxe_started(this, &status);

	return d ? pxe_dhcp(d, false) : status;
}

static EFI_STATUS EFIAPI pxe_bc_mtftp(EFI_PXE_BASE_CODE_PROTOCOL *this,
				      EFI_PXE_BASE_CODE_TFTP_OPCODE op, VOID *buffer,
				      BOOLEAN overwrite, UINT64 *size, UINTN *block_size,
				      EFI_IP_ADDRESS *server, UINT8 *name,
				      EFI_PXE_BASE_CODE_MTFTP_INFO *info, BOOLEAN dont_use_buffer)
{
	EFI_STATUS status;
	struct pxe_dev *d = pxe_started(this, &status);
	uint16_t blksize;
	UINTN n;

	if (!d)
		return status;
	if (!size || !server || !name)
		return EFI_INVALID_PARAMETER;
	if (op != EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE && op != EFI_PXE_BASE_CODE_TFTP_READ_FILE)
		return EFI_UNSUPPORTED;
	if (op == EFI_PXE_BASE_CODE_TFTP_READ_FILE && !buffer && !dont_use_buffer)
		return EFI_INVALID_PARAMETER;
	/* BlockSize "must be at least 512" (UEFI 2.10, Mtftp()). */
	if (block_size && *block_size < 512)
		return EFI_INVALID_PARAMETER;
	/* Blocks larger than a frame holds are asked as the largest that fits. */
	blksize = block_size ? (uint16_t)MIN(*block_size, (UINTN)TFTP_WANTED_BLKSIZE)
			     : TFTP_WANTED_BLKSIZE;
	n = op == EFI_PXE_BASE_CODE_TFTP_READ_FILE && !dont_use_buffer ? (UINTN)*size : 0;
	status = pxe_tftp_read_sized(d, net_get32(server->v4.Addr), (const char *)name, blksize,
				     n ? buffer : NULL, &n);
	if (status == EFI_SUCCESS || status == EFI_BUFFER_TOO_SMALL)
		*size = n;
	/* Asking the size is done when the size is known. */
	if (status == EFI_BUFFER_TOO_SMALL && op == EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE)
		status = EFI_SUCCESS;
	return status;
}

static EFI_STATUS EFIAPI pxe_bc_udp_write(EFI_PXE_BASE_CODE_PROTOCOL *this, UINT16 flags,
					  EFI_IP_ADDRESS *dst_ip,
					  EFI_PXE_BASE_CODE_UDP_PORT *dst_port,
					  EFI_IP_ADDRESS *gateway, EFI_IP_ADDRESS *src_ip,
					  EFI_PXE_BASE_CODE_UDP_PORT *src_port, UINTN *header_size,
					  VOID *header, UINTN *size, VOID *buffer)
{
	EFI_STATUS status;
	struct pxe_dev *d = pxe_started(this, &status);
	UINTN head = header_size ? *header_size : 0;
	uint16_t port;

	if (!d)
		return status;
	if (!dst_ip || !dst_port || !size || (*size && !buffer) || (head && !header))
		return EFI_INVALID_PARAMETER;
	if (head > PXE_UDP_PAYLOAD_MAX || *size > PXE_UDP_PAYLOAD_MAX - head)
		return EFI_BAD_BUFFER_SIZE;
	port = src_port && !(flags & EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_SRC_PORT) ? *src_port
										 : pxe_new_port(d);
	if (src_port)
		*src_port = port;
	mem_copy(pxe_tx_payload(d), header, head);
	mem_copy(pxe_tx_payload(d) + head, buffer, *size);
	return pxe_send_udp(d, net_get32(dst_ip->v4.Addr), port, *dst_port, head + *size);
}

/* Whether a datagram from src_ip:src fits what UdpRead's flags and arguments ask. */
static bool pxe_udp_wanted(UINT16 flags, EFI_IP_ADDRESS *want_ip,
			   EFI_PXE_BASE_CODE_UDP_PORT *want_port, uint32_t src_ip, uint16_t src)
{
	if (!(flags & EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_SRC_IP) && want_ip &&
	    net_get32(want_ip->v4.Addr) != src_ip)
		return false;
	return (flags & EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_SRC_PORT) || !want_port ||
	       *want_port == src;
}

static EFI_STATUS EFIAPI pxe_bc_udp_read(EFI_PXE_BASE_CODE_PROTOCOL *this, UINT16 flags,
					 EFI_IP_ADDRESS *dst_ip,
					 EFI_PXE_BASE_CODE_UDP_PORT *dst_port,
					 EFI_IP_ADDRESS *src_ip,
					 EFI_PXE_BASE_CODE_UDP_PORT *src_port, UINTN *header_size,
					 VOID *header, UINTN *size, VOID *buffer)
{
	EFI_STATUS status;
	struct pxe_dev *d = pxe_started(this, &status);
	bool any_port = flags & EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_DEST_PORT;
	UINT64 deadline = core_time_ns() + UDP_READ_WAIT_NS;
	UINTN head = header_size ? *header_size : 0;
	struct udp_datagram u;
	uint32_t from;

	if (!d)
		return status;
	if (!size || !buffer || (head && !header) || (!any_port && !dst_port))
		return EFI_INVALID_PARAMETER;
	while (pxe_wait_udp(d, any_port ? 0 : *dst_port, deadline, &u, &from)) {
		if (!pxe_udp_wanted(flags, src_ip, src_port, from, u.src_port))
			continue;
		if (u.len < head || u.len - head > *size) {
			*size = u.len > head ? u.len - head : 0;
			return EFI_BUFFER_TOO_SMALL;
		}
		mem_copy(header, u.payload, head);
		*size = u.len - head;
		mem_copy(buffer, u.payload + head, *size);
		if (src_ip)
			net_put32(src_ip->v4.Addr, from);
		if (src_port)
			*src_port = u.src_port;
		if (dst_port)
			*dst_port = u.dst_port;
		if (dst_ip)
			net_put32(dst_ip->v4.Addr, d->ip);
		return EFI_SUCCESS;
	}
	return EFI_TIMEOUT;
}

static EFI_STATUS EFIAPI pxe_bc_discover(EFI_PXE_BASE_CODE_PROTOCOL *this, UINT16 type,
					 UINT16 *layer, BOOLEAN use_bis,
					 EFI_PXE_BASE_CODE_DISCOVER_INFO *info)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI pxe_bc_set_ip_filter(EFI_PXE_BASE_CODE_PROTOCOL *this,
					      EFI_PXE_BASE_CODE_IP_FILTER *filter)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI pxe_bc_arp(EFI_PXE_BASE_CODE_PROTOCOL *this, EFI_IP_ADDRESS *ip,
				    EFI_MAC_ADDRESS *mac)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI pxe_bc_set_parameters(EFI_PXE_BASE_CODE_PROTOCOL *this, BOOLEAN *auto_arp,
					       BOOLEAN *send_guid, UINT8 *ttl, UINT8 *tos,
					       BOOLEAN *callbacks)
{
	return EFI_UNSUPPORTED;
}

/* The station address and mask, as a static configuration (Ip4Config2 then says so). */
static EFI_STATUS EFIAPI pxe_bc_set_station_ip(EFI_PXE_BASE_CODE_PROTOCOL *this, EFI_IP_ADDRESS *ip,
					       EFI_IP_ADDRESS *mask)
{
	EFI_STATUS status;
	struct pxe_dev *d = pxe_started(this, &status);
	EFI_IP4_CONFIG2_POLICY policy = Ip4Config2PolicyStatic;
	EFI_IP4_CONFIG2_MANUAL_ADDRESS m = {0};

	if (!d)
		return status;
	if (ip)
		m.Address = ip->v4;
	else
		net_put32(m.Address.Addr, d->ip);
	if (mask)
		m.SubnetMask = mask->v4;
	else
		net_put32(m.SubnetMask.Addr, d->subnet);
	if (!d->static_policy)
		d->ip4_config.SetData(&d->ip4_config, Ip4Config2DataTypePolicy, sizeof(policy),
				      &policy);
	return d->ip4_config.SetData(&d->ip4_config, Ip4Config2DataTypeManualAddress, sizeof(m),
				     &m);
}

static EFI_STATUS EFIAPI pxe_bc_set_packets(
    EFI_PXE_BASE_CODE_PROTOCOL *this, BOOLEAN *discover_valid, BOOLEAN *ack_received,
    BOOLEAN *proxy_received, BOOLEAN *pxe_discover_valid, BOOLEAN *pxe_reply_received,
    BOOLEAN *bis_reply_received, EFI_PXE_BASE_CODE_PACKET *discover, EFI_PXE_BASE_CODE_PACKET *ack,
    EFI_PXE_BASE_CODE_PACKET *proxy, EFI_PXE_BASE_CODE_PACKET *pxe_discover,
    EFI_PXE_BASE_CODE_PACKET *pxe_reply, EFI_PXE_BASE_CODE_PACKET *bis_reply)
{
	return EFI_UNSUPPORTED;
}

void pxe_base_code_init(struct pxe_dev *d)
{
	d->pxe = (EFI_PXE_BASE_CODE_PROTOCOL){
	    .Revision = EFI_PXE_BASE_CODE_PROTOCOL_REVISION,
	    .Start = pxe_bc_start,
	    .Stop = pxe_bc_stop,
	    .Dhcp = pxe_bc_dhcp,
	    .Discover = pxe_bc_discover,
	    .Mtftp = pxe_bc_mtftp,
	    .UdpWrite = pxe_bc_udp_write,
	    .UdpRead = pxe_bc_udp_read,
	    .SetIpFilter = pxe_bc_set_ip_filter,
	    .Arp = pxe_bc_arp,
	    .SetParameters = pxe_bc_set_parameters,
	    .SetStationIp = pxe_bc_set_station_ip,
	    .SetPackets = pxe_bc_set_packets,
	    .Mode = &d->mode,
	};
	d->mode.AutoArp = true;
	d->mode.TTL = 64;
}
