/* EFI_IP4_CONFIG2_PROTOCOL (UEFI 2.10, 28.5) on each NIC of the PXE driver: the interface's
 * name, MAC and addresses, and the policy. Differences from the specification, stated in
 * docs/network.md: setting the DHCP policy runs DHCP at once (SetData returns when it is
 * bound or gave up, the address then says which), every time it is set; DataType
 * notifications are not offered (RegisterDataNotify answers EFI_UNSUPPORTED); nothing is
 * kept across a reset (the policy starts as DHCP, with no address until it is asked). */
#define LOG_PREFIX "ip4config: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include "pxe.h"

/* The device behind This, or NULL when This is not one of ours. */
static struct pxe_dev *config_dev(EFI_IP4_CONFIG2_PROTOCOL *this)
{
	struct pxe_dev *d;

	if (!this || !mem_is_allocated(this, sizeof(*this)))
		return NULL;
	d = container_of(this, struct pxe_dev, ip4_config);
	return d->signature == PXE_SIGNATURE ? d : NULL;
}

/* Copies size bytes of src to Data, or says the size needed. */
static EFI_STATUS config_give(UINTN *data_size, VOID *data, const void *src, UINTN size)
{
	if (*data_size < size || !data) {
		*data_size = size;
		return EFI_BUFFER_TOO_SMALL;
	}
	mem_copy(data, src, size);
	*data_size = size;
	return EFI_SUCCESS;
}

/* InterfaceInfo with its route table right after it, as the size protocol hands it over:
 * the subnet's route and the default route through the router, when there are. */
struct config_info {
	EFI_IP4_CONFIG2_INTERFACE_INFO info;
	EFI_IP4_ROUTE_TABLE routes[2];
};
_Static_assert(offsetof(struct config_info, routes) == sizeof(EFI_IP4_CONFIG2_INTERFACE_INFO),
	       "the routes follow the structure");

/* Fills c; returns its size (the structure and the routes used). */
static UINTN config_info(struct pxe_dev *d, struct config_info *c)
{
	EFI_IP4_CONFIG2_INTERFACE_INFO *info = &c->info;
	char name[EFI_IP4_CONFIG2_INTERFACE_INFO_NAME_SIZE];
	UINT32 n = 0;

	mem_set(c, 0, sizeof(*c));
	format_sn(name, sizeof(name), "eth%u", d->index);
	for (size_t i = 0; name[i]; i++)
		info->Name[i] = (CHAR16)name[i];
	info->IfType = d->snp->Mode->IfType;
	info->HwAddressSize = NET_MAC_LEN;
	mem_copy(info->HwAddress.Addr, d->snp->Mode->CurrentAddress.Addr, NET_MAC_LEN);
	net_put32(info->StationAddress.Addr, d->ip);
	net_put32(info->SubnetMask.Addr, d->subnet);
	if (d->ip && d->subnet) {
		net_put32(c->routes[n].SubnetAddress.Addr, d->ip & d->subnet);
		net_put32(c->routes[n++].SubnetMask.Addr, d->subnet);
	}
	if (d->ip && d->router)
		net_put32(c->routes[n++].GatewayAddress.Addr, d->router);
	info->RouteTableSize = n;
	return sizeof(*info) + n * sizeof(EFI_IP4_ROUTE_TABLE);
}

static EFI_STATUS EFIAPI config_get(EFI_IP4_CONFIG2_PROTOCOL *this, EFI_IP4_CONFIG2_DATA_TYPE type,
				    UINTN *data_size, VOID *data)
{
	struct pxe_dev *d = config_dev(this);
	EFI_STATUS status;
	struct config_info info;
	EFI_IP4_CONFIG2_MANUAL_ADDRESS manual;
	UINTN size;
	EFI_IP4_CONFIG2_POLICY policy;
	EFI_IPv4_ADDRESS one;

	if (!d || !data_size)
		return EFI_INVALID_PARAMETER;
	switch (type) {
	case Ip4Config2DataTypeInterfaceInfo:
		size = config_info(d, &info);
		status = config_give(data_size, data, &info, size);
		/* The table's address is the caller's copy of it. */
		if (!EFI_ERROR(status))
			((EFI_IP4_CONFIG2_INTERFACE_INFO *)data)->RouteTable =
			    info.info.RouteTableSize
				? (EFI_IP4_ROUTE_TABLE *)((EFI_IP4_CONFIG2_INTERFACE_INFO *)data +
							  1)
				: NULL;
		return status;
	case Ip4Config2DataTypePolicy:
		policy = d->static_policy ? Ip4Config2PolicyStatic : Ip4Config2PolicyDhcp;
		return config_give(data_size, data, &policy, sizeof(policy));
	case Ip4Config2DataTypeManualAddress:
		if (!d->static_policy || !d->ip)
			return EFI_NOT_FOUND;
		net_put32(manual.Address.Addr, d->ip);
		net_put32(manual.SubnetMask.Addr, d->subnet);
		return config_give(data_size, data, &manual, sizeof(manual));
	case Ip4Config2DataTypeGateway:
	case Ip4Config2DataTypeDnsServer:
		/* One of each at most: the lease's or the one set. */
		if (!(type == Ip4Config2DataTypeGateway ? d->router : d->dns))
			return EFI_NOT_FOUND;
		net_put32(one.Addr, type == Ip4Config2DataTypeGateway ? d->router : d->dns);
		return config_give(data_size, data, &one, sizeof(one));
	default:
		return EFI_INVALID_PARAMETER;
	}
}

/* A mask of contiguous ones from the top (0 included). */
static bool config_mask_ok(uint32_t mask)
{
	return (~mask & (~mask + 1)) == 0;
}

/* An address a host may have: not 0, not broadcast, not class D or E. */
static bool config_host_ok(uint32_t ip)
{
	return ip && ip >> 28 < 0xe && (ip >> 24) != 127;
}

static EFI_STATUS config_set_policy(struct pxe_dev *d, UINTN size, const VOID *data)
{
	EFI_IP4_CONFIG2_POLICY policy;
	EFI_STATUS status;

	if (size != sizeof(policy))
		return EFI_BAD_BUFFER_SIZE;
	mem_copy(&policy, data, sizeof(policy));
	if (policy >= Ip4Config2PolicyMax)
		return EFI_INVALID_PARAMETER;
	/* Static again keeps the address set; DHCP again asks for a new lease. */
	if (policy == Ip4Config2PolicyStatic && d->static_policy)
		return EFI_SUCCESS;
	pxe_unbind(d);
	d->static_policy = policy == Ip4Config2PolicyStatic;
	if (d->static_policy)
		return EFI_SUCCESS;
	status = pxe_link_up(d);
	if (EFI_ERROR(status))
		return EFI_DEVICE_ERROR;
	d->config_dhcp = true;
	status = pxe_dhcp(d, false);
	d->config_dhcp = false;
	if (EFI_ERROR(status)) {
		log_warn("eth%u: no address from DHCP (%r)\n", d->index, status);
		pxe_unbind(d);
	}
	/* Like an asynchronous DHCP the specification describes, the outcome is the address. */
	return EFI_SUCCESS;
}

static EFI_STATUS config_set_manual(struct pxe_dev *d, UINTN size, const VOID *data)
{
	EFI_IP4_CONFIG2_MANUAL_ADDRESS m;
	uint32_t ip, mask;

	if (size == 0) {
		d->ip = d->subnet = 0;
		goto out;
	}
	if (size != sizeof(m))
		return EFI_BAD_BUFFER_SIZE;
	mem_copy(&m, data, sizeof(m));
	ip = net_get32(m.Address.Addr);
	mask = net_get32(m.SubnetMask.Addr);
	/* The subnet's own address and its broadcast are not a host's (below /31). */
	if (!config_host_ok(ip) || !mask || !config_mask_ok(mask) ||
	    (~mask > 1 && ((ip & ~mask) == 0 || (ip | mask) == 0xffffffffu)))
		return EFI_INVALID_PARAMETER;
	d->ip = ip;
	d->subnet = mask;
	/* A router off the new subnet is no use. */
	if (d->router && mask && (d->router & mask) != (ip & mask))
		d->router = 0;
out:
	net_put32(d->mode.StationIp.v4.Addr, d->ip);
	net_put32(d->mode.SubnetMask.v4.Addr, d->subnet);
	return EFI_SUCCESS;
}

/* Gateway or DnsServer: a list of addresses, of which the first is used. */
static EFI_STATUS config_set_server(struct pxe_dev *d, bool gateway, UINTN size, const VOID *data)
{
	uint32_t ip;

	if (size % sizeof(EFI_IPv4_ADDRESS))
		return EFI_BAD_BUFFER_SIZE;
	ip = size ? net_get32(data) : 0;
	if (size && !config_host_ok(ip))
		return EFI_INVALID_PARAMETER;
	if (gateway && ip && d->ip && d->subnet && (ip & d->subnet) != (d->ip & d->subnet))
		return EFI_INVALID_PARAMETER;
	if (gateway)
		d->router = ip;
	else
		d->dns = ip;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI config_set(EFI_IP4_CONFIG2_PROTOCOL *this, EFI_IP4_CONFIG2_DATA_TYPE type,
				    UINTN data_size, VOID *data)
{
	struct pxe_dev *d = config_dev(this);

	if (!d || (data_size && !data))
		return EFI_INVALID_PARAMETER;
	switch (type) {
	case Ip4Config2DataTypeInterfaceInfo:
		return EFI_WRITE_PROTECTED;
	case Ip4Config2DataTypePolicy:
		return data_size ? config_set_policy(d, data_size, data) : EFI_BAD_BUFFER_SIZE;
	case Ip4Config2DataTypeManualAddress:
	case Ip4Config2DataTypeGateway:
	case Ip4Config2DataTypeDnsServer:
		/* Only the static policy takes addresses from programs (28.5.2). */
		if (!d->static_policy)
			return EFI_WRITE_PROTECTED;
		if (type == Ip4Config2DataTypeManualAddress)
			return config_set_manual(d, data_size, data);
		return config_set_server(d, type == Ip4Config2DataTypeGateway, data_size, data);
	default:
		return EFI_INVALID_PARAMETER;
	}
}

static EFI_STATUS EFIAPI config_notify(EFI_IP4_CONFIG2_PROTOCOL *this,
				       EFI_IP4_CONFIG2_DATA_TYPE type, EFI_EVENT event)
{
	if (!config_dev(this) || !event || type >= Ip4Config2DataTypeMaximum)
		return EFI_INVALID_PARAMETER;
	return EFI_UNSUPPORTED;
}

void pxe_ip4_config_init(struct pxe_dev *d)
{
	d->ip4_config = (EFI_IP4_CONFIG2_PROTOCOL){
	    .SetData = config_set,
	    .GetData = config_get,
	    .RegisterDataNotify = config_notify,
	    .UnregisterDataNotify = config_notify,
	};
}
