/* ifconfig: shows and sets the IPv4 configuration of the network interfaces through
 * EFI_IP4_CONFIG2_PROTOCOL, as the UEFI Shell's ifconfig does (-l, -s NAME dhcp,
 * -s NAME static IP MASK GATEWAY). */
#include "net.h"

static void show_ip(struct shell *sh, const char *label, const UINT8 *a)
{
	sh_print(sh, "%s: %u.%u.%u.%u\n", label, a[0], a[1], a[2], a[3]);
}

/* One address of Gateway or DnsServer, or "none". Without a Gateway set, the default
 * route's gateway (a DHCP router, where EDK2 keeps it). */
static void show_server(struct shell *sh, const char *label, struct net_if *nif,
			EFI_IP4_CONFIG2_DATA_TYPE type)
{
	EFI_IPv4_ADDRESS a[4];
	UINTN size = sizeof(a);

	if (!EFI_ERROR(nif->config->GetData(nif->config, type, &size, a)) && size >= sizeof(a[0]))
		show_ip(sh, label, a[0].Addr);
	else if (type == Ip4Config2DataTypeGateway && nif->has_route_gateway)
		show_ip(sh, label, nif->route_gateway.Addr);
	else
		sh_print(sh, "%s: none\n", label);
}

static void show(struct shell *sh, struct net_if *nif)
{
	EFI_IP4_CONFIG2_POLICY policy = Ip4Config2PolicyMax;
	UINTN size = sizeof(policy);
	const UINT8 *mac = nif->info.HwAddress.Addr;

	nif->config->GetData(nif->config, Ip4Config2DataTypePolicy, &size, &policy);
	sh_print(sh, "-----------------------------------------------------------------\n");
	sh_print(sh, "name            : %ls\n", nif->info.Name);
	sh_print(sh, "policy          : %s\n",
		 policy == Ip4Config2PolicyDhcp	    ? "dhcp"
		 : policy == Ip4Config2PolicyStatic ? "static"
						    : "unknown");
	sh_print(sh, "mac addr        : ");
	for (UINT32 i = 0; i < nif->info.HwAddressSize && i < 32; i++)
		sh_print(sh, "%s%02x", i ? ":" : "", mac[i]);
	sh_print(sh, "\n");
	show_ip(sh, "ipv4 address    ", nif->info.StationAddress.Addr);
	show_ip(sh, "subnet mask     ", nif->info.SubnetMask.Addr);
	show_server(sh, "default gateway ", nif, Ip4Config2DataTypeGateway);
	show_server(sh, "dns server      ", nif, Ip4Config2DataTypeDnsServer);
}

static EFI_STATUS list(struct shell *sh, const CHAR16 *name)
{
	struct net_if all[16];
	UINTN n;
	EFI_STATUS status;

	if (name) {
		status = net_if_find(sh, "ifconfig", name, &all[0]);
		if (EFI_ERROR(status))
			return status;
		show(sh, &all[0]);
		return EFI_SUCCESS;
	}
	n = net_if_list(all, ARRAY_SIZE(all));
	if (!n) {
		sh_error(sh, "ifconfig: no network interface\n");
		return EFI_NOT_FOUND;
	}
	for (UINTN i = 0; i < n && i < ARRAY_SIZE(all); i++)
		show(sh, &all[i]);
	return EFI_SUCCESS;
}

static EFI_STATUS set_policy(struct net_if *nif, EFI_IP4_CONFIG2_POLICY policy)
{
	return nif->config->SetData(nif->config, Ip4Config2DataTypePolicy, sizeof(policy), &policy);
}

static EFI_STATUS set_dhcp(struct shell *sh, struct net_if *nif)
{
	EFI_STATUS status = set_policy(nif, Ip4Config2PolicyDhcp);
	const UINT8 *a = nif->info.StationAddress.Addr;

	if (EFI_ERROR(status)) {
		sh_error(sh, "ifconfig: %ls: DHCP: %s\n", nif->info.Name, net_status_text(status));
		return status;
	}
	if (!net_if_wait_address(nif)) {
		sh_error(sh, "ifconfig: %ls: no address from DHCP: no server answered\n",
			 nif->info.Name);
		return EFI_TIMEOUT;
	}
	sh_print(sh, "%ls: %u.%u.%u.%u from DHCP\n", nif->info.Name, a[0], a[1], a[2], a[3]);
	return EFI_SUCCESS;
}

static EFI_STATUS set_static(struct shell *sh, struct net_if *nif, CHAR16 **words)
{
	EFI_IP4_CONFIG2_MANUAL_ADDRESS m;
	EFI_IPv4_ADDRESS gw;
	EFI_STATUS status;

	for (int i = 0; i < 3; i++) {
		EFI_IPv4_ADDRESS *to = i == 0 ? &m.Address : i == 1 ? &m.SubnetMask : &gw;
		if (!net_parse_ipv4(words[i], to)) {
			sh_error(sh, "ifconfig: '%ls' is not an IPv4 address\n", words[i]);
			return EFI_INVALID_PARAMETER;
		}
	}
	status = set_policy(nif, Ip4Config2PolicyStatic);
	if (!EFI_ERROR(status))
		status = nif->config->SetData(nif->config, Ip4Config2DataTypeManualAddress,
					      sizeof(m), &m);
	if (EFI_ERROR(status)) {
		sh_error(sh, "ifconfig: %ls: %ls with mask %ls is not a host's address (%r)\n",
			 nif->info.Name, words[0], words[1], status);
		return status;
	}
	/* 0.0.0.0 as the gateway: none. */
	status = nif->config->SetData(nif->config, Ip4Config2DataTypeGateway,
				      mem_is_zero(gw.Addr, 4) ? 0 : sizeof(gw), &gw);
	if (EFI_ERROR(status)) {
		sh_error(sh, "ifconfig: %ls: gateway %ls is not on the subnet (%r)\n",
			 nif->info.Name, words[2], status);
		return status;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS set(struct shell *sh, UINTN count, CHAR16 **pos)
{
	struct net_if nif;
	EFI_STATUS status;

	if (count < 2 || !((sh_eq_ascii(pos[1], "dhcp") && count == 2) ||
			   (sh_eq_ascii(pos[1], "static") && count == 5))) {
		sh_error(sh, "ifconfig: -s wants NAME dhcp, or NAME static IP MASK GATEWAY\n");
		return EFI_INVALID_PARAMETER;
	}
	status = net_if_find(sh, "ifconfig", pos[0], &nif);
	if (EFI_ERROR(status))
		return status;
	return count == 2 ? set_dhcp(sh, &nif) : set_static(sh, &nif, pos + 2);
}

static EFI_STATUS cmd_ifconfig(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-l", SH_OPT_FLAG}, {"-s", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);
	bool l, s;

	if (EFI_ERROR(status))
		return status;
	l = sh_args_has(&a, "-l");
	s = sh_args_has(&a, "-s");
	if (l == s || (l && a.count > 1)) {
		sh_error(sh, "ifconfig: give -l [NAME] or -s NAME ...\n");
		return EFI_INVALID_PARAMETER;
	}
	return l ? list(sh, a.count ? a.pos[0] : NULL) : set(sh, a.count, a.pos);
}

SH_COMMAND(ifconfig, "ifconfig", "Shows or sets the IPv4 configuration of network interfaces",
	   "ifconfig -l [name]\n"
	   "ifconfig -s name dhcp\n"
	   "ifconfig -s name static ip mask gateway\n"
	   "  -l    lists the interfaces (eth0 ...): MAC, policy, address, mask, gateway, DNS\n"
	   "  -s    sets the policy: dhcp asks a DHCP server now; static sets the address,\n"
	   "        mask and gateway (0.0.0.0: none)\n"
	   "  ping, tftp and http ask DHCP themselves when the policy is dhcp and the\n"
	   "  interface has no address yet.\n",
	   cmd_ifconfig);
