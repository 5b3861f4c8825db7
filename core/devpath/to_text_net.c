/* Text of network and wireless messaging nodes (UEFI 2.10, 10.6.1.5 - 10.6.1.6). */
#include "devpath_internal.h"
#include <ember/lib/str.h>

#define AT(T, f) (n + offsetof(T, f))

static bool print_mac(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINT8 *mac = AT(MAC_ADDR_DEVICE_PATH, MacAddress);
	UINT8 if_type;
	UINTN size = sizeof(EFI_MAC_ADDRESS);

	if (len != sizeof(MAC_ADDR_DEVICE_PATH))
		return false;
	if_type = *AT(MAC_ADDR_DEVICE_PATH, IfType);
	/* Ethernet (0 and 1) shows six bytes, so the padding must be zero to round-trip. */
	if (if_type <= 1) {
		if (!mem_is_zero(mac + 6, size - 6))
			return false;
		size = 6;
	}
	dp_out_ascii(o, "MAC(");
	dp_out_hex(o, mac, size);
	dp_out_printf(o, ",0x%X)", if_type);
	return true;
}

static void print_protocol(struct dp_out *o, UINT16 protocol)
{
	if (protocol == 6)
		dp_out_ascii(o, "TCP");
	else if (protocol == 17)
		dp_out_ascii(o, "UDP");
	else
		dp_out_printf(o, "0x%X", protocol);
}

static bool print_ipv4(struct dp_out *o, const UINT8 *n, UINTN len)
{
	UINT8 is_static;

	/* Pre-2.x 19-byte nodes lack gateway and mask: the generic form keeps them exact. */
	if (len != sizeof(IPv4_DEVICE_PATH))
		return false;
	dp_out_ascii(o, "IPv4(");
	dp_out_ipv4(o, AT(IPv4_DEVICE_PATH, RemoteIpAddress),
		    dp_rd16(AT(IPv4_DEVICE_PATH, RemotePort)));
	if (o->display_only) {
		dp_out_ascii(o, ")");
		return true;
	}
	dp_out_ascii(o, ",");
	print_protocol(o, dp_rd16(AT(IPv4_DEVICE_PATH, Protocol)));
	is_static = *AT(IPv4_DEVICE_PATH, StaticIpAddress);
	if (is_static <= 1)
		dp_out_ascii(o, is_static ? ",Static," : ",DHCP,");
	else
		dp_out_printf(o, ",0x%X,", is_static);
	dp_out_ipv4(o, AT(IPv4_DEVICE_PATH, LocalIpAddress),
		    dp_rd16(AT(IPv4_DEVICE_PATH, LocalPort)));
	dp_out_ascii(o, ",");
	dp_out_ipv4(o, AT(IPv4_DEVICE_PATH, GatewayIpAddress), 0);
	dp_out_ascii(o, ",");
	dp_out_ipv4(o, AT(IPv4_DEVICE_PATH, SubnetMask), 0);
	dp_out_ascii(o, ")");
	return true;
}

static bool print_ipv6(struct dp_out *o, const UINT8 *n, UINTN len)
{
	static const char *const origins[] = {"Static", "StatelessAutoConfigure",
					      "StatefulAutoConfigure"};
	UINT8 origin;

	if (len != sizeof(IPv6_DEVICE_PATH))
		return false;
	dp_out_ascii(o, "IPv6(");
	dp_out_ipv6(o, AT(IPv6_DEVICE_PATH, RemoteIpAddress),
		    dp_rd16(AT(IPv6_DEVICE_PATH, RemotePort)));
	if (o->display_only) {
		dp_out_ascii(o, ")");
		return true;
	}
	dp_out_ascii(o, ",");
	print_protocol(o, dp_rd16(AT(IPv6_DEVICE_PATH, Protocol)));
	origin = *AT(IPv6_DEVICE_PATH, IpAddressOrigin);
	if (origin < ARRAY_SIZE(origins))
		dp_out_printf(o, ",%s,", origins[origin]);
	else
		dp_out_printf(o, ",0x%X,", origin);
	dp_out_ipv6(o, AT(IPv6_DEVICE_PATH, LocalIpAddress),
		    dp_rd16(AT(IPv6_DEVICE_PATH, LocalPort)));
	dp_out_printf(o, ",0x%X,", *AT(IPv6_DEVICE_PATH, PrefixLength));
	dp_out_ipv6(o, AT(IPv6_DEVICE_PATH, GatewayIpAddress), 0);
	dp_out_ascii(o, ")");
	return true;
}

static const char *iscsi_auth(UINT16 options)
{
	if (options & ISCSI_LOGIN_OPTION_AUTHMETHOD_NON)
		return "None";
	return options & ISCSI_LOGIN_OPTION_CHAP_UNI ? "CHAP_UNI" : "CHAP_BI";
}

static bool print_iscsi(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINT8 *name = n + sizeof(ISCSI_DEVICE_PATH);
	UINT16 opt, proto;
	const UINT16 known = ISCSI_LOGIN_OPTION_HEADER_DIGEST_CRC32C |
			     ISCSI_LOGIN_OPTION_DATA_DIGEST_CRC32C |
			     ISCSI_LOGIN_OPTION_AUTHMETHOD_NON | ISCSI_LOGIN_OPTION_CHAP_UNI;

	if (len <= sizeof(ISCSI_DEVICE_PATH) ||
	    !dp_cstr_exact(name, len - sizeof(ISCSI_DEVICE_PATH)))
		return false;
	opt = dp_rd16(AT(ISCSI_DEVICE_PATH, LoginOption));
	if ((opt & ~known) ||
	    ((opt & ISCSI_LOGIN_OPTION_AUTHMETHOD_NON) && (opt & ISCSI_LOGIN_OPTION_CHAP_UNI)))
		return false;
	if (!dp_text_arg_safe(name, len - sizeof(ISCSI_DEVICE_PATH) - 1, 1))
		return false;
	dp_out_ascii(o, "iSCSI(");
	dp_out_bytes(o, name, len - sizeof(ISCSI_DEVICE_PATH) - 1);
	dp_out_printf(o, ",0x%X,", dp_rd16(AT(ISCSI_DEVICE_PATH, TargetPortalGroupTag)));
	dp_out_be8(o, AT(ISCSI_DEVICE_PATH, Lun));
	dp_out_printf(
	    o, ",%s,%s,%s,", opt & ISCSI_LOGIN_OPTION_HEADER_DIGEST_CRC32C ? "CRC32C" : "None",
	    opt & ISCSI_LOGIN_OPTION_DATA_DIGEST_CRC32C ? "CRC32C" : "None", iscsi_auth(opt));
	proto = dp_rd16(AT(ISCSI_DEVICE_PATH, NetworkProtocol));
	if (proto)
		dp_out_printf(o, "0x%X)", proto);
	else
		dp_out_ascii(o, "TCP)");
	return true;
}

static bool print_vlan(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(VLAN_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Vlan(%u)", dp_rd16(AT(VLAN_DEVICE_PATH, VlanId)));
	return true;
}

static bool print_uri(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINT8 *uri = n + sizeof(URI_DEVICE_PATH);

	if (len < sizeof(URI_DEVICE_PATH) ||
	    !dp_text_raw_safe(uri, len - sizeof(URI_DEVICE_PATH), 1))
		return false;
	dp_out_ascii(o, "Uri(");
	dp_out_bytes(o, uri, len - sizeof(URI_DEVICE_PATH));
	dp_out_ascii(o, ")");
	return true;
}

static bool print_bluetooth(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(BLUETOOTH_DEVICE_PATH))
		return false;
	dp_out_ascii(o, "Bluetooth(");
	dp_out_hex(o, AT(BLUETOOTH_DEVICE_PATH, Address), 6);
	dp_out_ascii(o, ")");
	return true;
}

static bool print_bluetooth_le(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(BLUETOOTH_LE_DEVICE_PATH))
		return false;
	dp_out_ascii(o, "BluetoothLE(");
	dp_out_hex(o, AT(BLUETOOTH_LE_DEVICE_PATH, Address), 6);
	dp_out_printf(o, ",0x%02X)", *AT(BLUETOOTH_LE_DEVICE_PATH, AddressType));
	return true;
}

static bool print_wifi(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINT8 *ssid = AT(WIFI_DEVICE_PATH, SSId);
	UINTN k = 0;

	if (len != sizeof(WIFI_DEVICE_PATH))
		return false;
	while (k < 32 && ssid[k])
		k++;
	/* The text stops at the first NUL, so anything after it must be padding. */
	if (!mem_is_zero(ssid + k, 32 - k) || !dp_text_raw_safe(ssid, k, 1))
		return false;
	dp_out_ascii(o, "Wi-Fi(");
	dp_out_bytes(o, ssid, k);
	dp_out_ascii(o, ")");
	return true;
}

static bool print_dns(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINTN base = sizeof(DNS_DEVICE_PATH), step = sizeof(EFI_IP_ADDRESS);
	UINT8 v6;

	if (len < base || (len - base) % step)
		return false;
	v6 = *AT(DNS_DEVICE_PATH, IsIPv6);
	/* An empty list cannot say which family it is, and IPv4 shows 4 of the 16 bytes. */
	if (v6 > 1 || (v6 && len == base))
		return false;
	for (UINTN pos = base; !v6 && pos < len; pos += step)
		if (!mem_is_zero(n + pos + 4, step - 4))
			return false;
	dp_out_ascii(o, "Dns(");
	for (UINTN pos = base; pos < len; pos += step) {
		if (pos != base)
			dp_out_ascii(o, ",");
		if (v6)
			dp_out_ipv6(o, n + pos, 0);
		else
			dp_out_ipv4(o, n + pos, 0);
	}
	dp_out_ascii(o, ")");
	return true;
}

static bool print_rest(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINTN vendor = sizeof(REST_SERVICE_DEVICE_PATH) + sizeof(EFI_GUID);
	UINT8 service = *AT(REST_SERVICE_DEVICE_PATH, RESTService);

	if (service == REST_SERVICE_VENDOR ? len < vendor : len != sizeof(REST_SERVICE_DEVICE_PATH))
		return false;
	dp_out_printf(o, "RestService(0x%X,0x%X", service,
		      *AT(REST_SERVICE_DEVICE_PATH, AccessMode));
	if (service == REST_SERVICE_VENDOR) {
		dp_out_ascii(o, ",");
		dp_out_guid(o, n + sizeof(REST_SERVICE_DEVICE_PATH));
		if (len > vendor) {
			dp_out_ascii(o, ",");
			dp_out_hex(o, n + vendor, len - vendor);
		}
	}
	dp_out_ascii(o, ")");
	return true;
}

/* clang-format off */
const struct dp_printer_entry dp_printers_net[] = {
	{MESSAGING_DEVICE_PATH, MSG_MAC_ADDR_DP, print_mac},
	{MESSAGING_DEVICE_PATH, MSG_IPv4_DP, print_ipv4},
	{MESSAGING_DEVICE_PATH, MSG_IPv6_DP, print_ipv6},
	{MESSAGING_DEVICE_PATH, MSG_ISCSI_DP, print_iscsi},
	{MESSAGING_DEVICE_PATH, MSG_VLAN_DP, print_vlan},
	{MESSAGING_DEVICE_PATH, MSG_URI_DP, print_uri},
	{MESSAGING_DEVICE_PATH, MSG_BLUETOOTH_DP, print_bluetooth},
	{MESSAGING_DEVICE_PATH, MSG_BLUETOOTH_LE_DP, print_bluetooth_le},
	{MESSAGING_DEVICE_PATH, MSG_WIFI_DP, print_wifi},
	{MESSAGING_DEVICE_PATH, MSG_DNS_DP, print_dns},
	{MESSAGING_DEVICE_PATH, MSG_REST_SERVICE_DP, print_rest},
	{0, 0, NULL},
};
/* clang-format on */
