/* The network commands' interfaces and addresses (net.h). */
#include "net.h"
#include <ember/lib/devpath_node.h>

/* How long an asynchronous DHCP (UEFI 2.10, 28.5: SetData may start it in the background,
 * as EDK2's does) is waited for, and how often the address is looked at. Ember's stack
 * is done when SetData returns. */
#define DHCP_WAIT_STEPS 100
#define DHCP_STEP_US 100000

static EFI_GUID config_guid = EFI_IP4_CONFIG2_PROTOCOL_GUID;

/* The gateway of the default route in the table that follows info (size bytes in all): a
 * DHCP router is there (EDK2), not in Gateway. */
static void net_if_default_route(struct net_if *nif, const EFI_IP4_CONFIG2_INTERFACE_INFO *info,
				 UINTN size)
{
	const EFI_IP4_ROUTE_TABLE *r = (const EFI_IP4_ROUTE_TABLE *)(info + 1);
	UINTN n = MIN((UINTN)info->RouteTableSize, (size - sizeof(*info)) / sizeof(*r));

	nif->has_route_gateway = false;
	for (UINTN i = 0; i < n; i++) {
		if (mem_is_zero(r[i].SubnetAddress.Addr, 4) &&
		    mem_is_zero(r[i].SubnetMask.Addr, 4) &&
		    !mem_is_zero(r[i].GatewayAddress.Addr, 4)) {
			nif->route_gateway = r[i].GatewayAddress;
			nif->has_route_gateway = true;
		}
	}
}

/* Reads the interface's information again. Its size is asked first: a firmware may put the
 * route table after the structure (EDK2 does, once it has an address). */
static bool net_if_refresh(struct net_if *nif)
{
	EFI_IP4_CONFIG2_INTERFACE_INFO *info;
	UINTN size = 0;
	EFI_STATUS status =
	    nif->config->GetData(nif->config, Ip4Config2DataTypeInterfaceInfo, &size, NULL);

	if (status != EFI_BUFFER_TOO_SMALL || size < sizeof(*info) || !(info = app_alloc(size)))
		return false;
	status = nif->config->GetData(nif->config, Ip4Config2DataTypeInterfaceInfo, &size, info);
	if (!EFI_ERROR(status)) {
		nif->info = *info;
		nif->info.Name[EFI_IP4_CONFIG2_INTERFACE_INFO_NAME_SIZE - 1] = 0;
		net_if_default_route(nif, info, size);
		/* The route table was in the buffer freed here. */
		nif->info.RouteTable = NULL;
		nif->info.RouteTableSize = 0;
	}
	app_free(info);
	return !EFI_ERROR(status);
}

UINTN net_if_list(struct net_if *out, UINTN max)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0, n = 0;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, &config_guid, NULL, &count, &handles)))
		return 0;
	for (UINTN i = 0; i < count; i++) {
		struct net_if nif = {.handle = handles[i]};

		if (EFI_ERROR(
			app_bs->HandleProtocol(handles[i], &config_guid, (void **)&nif.config)) ||
		    !net_if_refresh(&nif))
			continue;
		if (n < max)
			out[n] = nif;
		n++;
	}
	app_bs->FreePool(handles);
	return n;
}

EFI_STATUS net_if_find(struct shell *sh, const char *cmd, const CHAR16 *name, struct net_if *out)
{
	struct net_if all[16];
	UINTN n = net_if_list(all, ARRAY_SIZE(all));

	if (!n) {
		sh_error(sh, "%s: no network interface\n", cmd);
		return EFI_NOT_FOUND;
	}
	for (UINTN i = 0; i < n && i < ARRAY_SIZE(all); i++) {
		if (!name || sh_eq_nocase(name, all[i].info.Name)) {
			*out = all[i];
			return EFI_SUCCESS;
		}
	}
	sh_error(sh, "%s: no interface %ls (ifconfig -l lists them)\n", cmd, name);
	return EFI_NOT_FOUND;
}

bool net_if_wait_address(struct net_if *nif)
{
	for (int i = 0; i <= DHCP_WAIT_STEPS; i++) {
		if (i)
			app_bs->Stall(DHCP_STEP_US);
		if (!net_if_refresh(nif))
			return false;
		if (!mem_is_zero(nif->info.StationAddress.Addr, 4))
			return true;
	}
	return false;
}

EFI_STATUS net_if_need_address(struct shell *sh, const char *cmd, struct net_if *nif)
{
	EFI_IP4_CONFIG2_POLICY policy = Ip4Config2PolicyStatic;
	UINTN size = sizeof(policy);

	if (!net_if_refresh(nif))
		return EFI_DEVICE_ERROR;
	if (!mem_is_zero(nif->info.StationAddress.Addr, 4))
		return EFI_SUCCESS;
	nif->config->GetData(nif->config, Ip4Config2DataTypePolicy, &size, &policy);
	if (policy == Ip4Config2PolicyDhcp) {
		/* Setting the DHCP policy asks for an address. */
		nif->config->SetData(nif->config, Ip4Config2DataTypePolicy, sizeof(policy),
				     &policy);
		if (net_if_wait_address(nif))
			return EFI_SUCCESS;
		sh_error(sh, "%s: %ls has no IPv4 address: DHCP got no answer\n", cmd,
			 nif->info.Name);
	} else {
		sh_error(sh, "%s: %ls has no IPv4 address (ifconfig -s %ls dhcp, or static)\n", cmd,
			 nif->info.Name, nif->info.Name);
	}
	return EFI_NO_MAPPING;
}

/* guid on a child of the interface: a handle whose device path extends the interface's
 * (EDK2 puts its PXE base code on a MAC()/IPv4() child). */
static EFI_STATUS net_if_child_protocol(struct net_if *nif, EFI_GUID *guid, void **out)
{
	static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL *nic, *path;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	EFI_STATUS status = EFI_NOT_FOUND;

	if (EFI_ERROR(app_bs->HandleProtocol(nif->handle, &dp_guid, (void **)&nic)) ||
	    EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, guid, NULL, &count, &handles)))
		return EFI_NOT_FOUND;
	for (UINTN i = 0; i < count && EFI_ERROR(status); i++)
		if (!EFI_ERROR(app_bs->HandleProtocol(handles[i], &dp_guid, (void **)&path)) &&
		    dp_starts_with(path, nic))
			status = app_bs->HandleProtocol(handles[i], guid, out);
	app_bs->FreePool(handles);
	return status;
}

EFI_STATUS net_if_protocol(struct shell *sh, const char *cmd, struct net_if *nif, EFI_GUID *guid,
			   const char *what, void **out)
{
	EFI_STATUS status = app_bs->HandleProtocol(nif->handle, guid, out);

	if (EFI_ERROR(status))
		status = net_if_child_protocol(nif, guid, out);
	if (EFI_ERROR(status))
		sh_error(sh, "%s: %ls has no %s\n", cmd, nif->info.Name, what);
	return status;
}

bool net_parse_ipv4(const CHAR16 *s, EFI_IPv4_ADDRESS *out)
{
	for (int i = 0; i < 4; i++) {
		unsigned v = 0, digits = 0;

		for (; *s >= '0' && *s <= '9' && digits < 3; s++, digits++)
			v = v * 10 + (unsigned)(*s - '0');
		if (!digits || v > 255 || *s != (i < 3 ? '.' : 0))
			return false;
		out->Addr[i] = (UINT8)v;
		s++;
	}
	return true;
}

const char *net_status_text(EFI_STATUS status)
{
	static const struct sh_status_words texts[] = {
	    {EFI_NOT_FOUND, "not found on the server"},
	    {EFI_ACCESS_DENIED, "access denied by the server"},
	    {EFI_TIMEOUT, "no answer (timed out)"},
	    {EFI_NO_RESPONSE, "the host does not answer (unreachable or refused)"},
	    {EFI_NO_MAPPING, "the interface has no IPv4 address"},
	    {EFI_HTTP_ERROR, "the server answered with an error"},
	    {EFI_TFTP_ERROR, "the server answered with an error"},
	    {EFI_UNSUPPORTED, "not supported"},
	    {EFI_INVALID_PARAMETER, "invalid parameter"},
	    {EFI_OUT_OF_RESOURCES, "out of memory"},
	    {EFI_BAD_BUFFER_SIZE, "too large"},
	};

	return sh_status_words(texts, ARRAY_SIZE(texts), status);
}
