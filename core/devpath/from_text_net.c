/* Parsers for network and wireless messaging text device nodes (UEFI 2.10, 10.6.1.5-6). */
#include "devpath_internal.h"
#include <ember/lib/str.h>

#define MSG MESSAGING_DEVICE_PATH

static const struct dp_kw protocols[] = {{"TCP", 6}, {"UDP", 17}};

static bool parse_mac(const struct dp_args *a, struct dp_buf *out)
{
	MAC_ADDR_DEVICE_PATH n = {0};
	UINT8 mac[sizeof(EFI_MAC_ADDRESS)];
	UINT64 if_type = 0;
	UINTN len;

	if (!dp_arg_given(a, 0) || !dp_str_hexdump(a->v[0], mac, sizeof(mac), &len) ||
	    !dp_arg_u64(a, 1, 0xff, &if_type))
		return false;
	mem_copy(n.MacAddress.Addr, mac, len);
	n.IfType = (UINT8)if_type;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_MAC_ADDR_DP);
	return true;
}

/* Optional IPv4 address parameter, with a port when port is not NULL. */
static bool arg_ipv4(const struct dp_args *a, UINTN i, EFI_IPv4_ADDRESS *addr, UINT16 *port)
{
	UINT8 bytes[4];

	if (!dp_arg_given(a, i))
		return true;
	if (!dp_str_ipv4(a->v[i], bytes, port))
		return false;
	mem_copy(addr->Addr, bytes, 4);
	return true;
}

/* IPv4(RemoteIp,Protocol,Type,LocalIp,GatewayIPAddress,SubnetMask) */
static bool parse_ipv4(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw types[] = {{"DHCP", 0}, {"Static", 1}};
	IPv4_DEVICE_PATH n = {0};
	EFI_IPv4_ADDRESS remote = {{0}}, local = {{0}}, gateway = {{0}}, mask = {{0}};
	UINT16 remote_port = 0, local_port = 0;
	UINT64 protocol = 17, type = 0;

	if (!dp_arg_given(a, 0) || !arg_ipv4(a, 0, &remote, &remote_port) ||
	    !dp_arg_kw(a, 1, protocols, 2, 0xffff, &protocol) ||
	    !dp_arg_kw(a, 2, types, 2, 0xff, &type) || !arg_ipv4(a, 3, &local, &local_port) ||
	    !arg_ipv4(a, 4, &gateway, NULL) || !arg_ipv4(a, 5, &mask, NULL))
		return false;
	n.LocalIpAddress = local;
	n.RemoteIpAddress = remote;
	n.LocalPort = local_port;
	n.RemotePort = remote_port;
	n.Protocol = (UINT16)protocol;
	n.StaticIpAddress = (BOOLEAN)type;
	n.GatewayIpAddress = gateway;
	n.SubnetMask = mask;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_IPv4_DP);
	return true;
}

static bool arg_ipv6(const struct dp_args *a, UINTN i, EFI_IPv6_ADDRESS *addr, UINT16 *port)
{
	UINT8 bytes[16];

	if (!dp_arg_given(a, i))
		return true;
	if (!dp_str_ipv6(a->v[i], bytes, port))
		return false;
	mem_copy(addr->Addr, bytes, 16);
	return true;
}

/* IPv6(RemoteIp,Protocol,IPAddressOrigin,LocalIp,PrefixLength,GatewayIPAddress) */
static bool parse_ipv6(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw origins[] = {
	    {"Static", 0}, {"StatelessAutoConfigure", 1}, {"StatefulAutoConfigure", 2}};
	IPv6_DEVICE_PATH n = {0};
	EFI_IPv6_ADDRESS remote = {{0}}, local = {{0}}, gateway = {{0}};
	UINT16 remote_port = 0, local_port = 0;
	UINT64 protocol = 17, origin = 0, prefix = 0;

	if (!dp_arg_given(a, 0) || !arg_ipv6(a, 0, &remote, &remote_port) ||
	    !dp_arg_kw(a, 1, protocols, 2, 0xffff, &protocol) ||
	    !dp_arg_kw(a, 2, origins, 3, 0xff, &origin) || !arg_ipv6(a, 3, &local, &local_port) ||
	    !dp_arg_u64(a, 4, 0xff, &prefix) || !arg_ipv6(a, 5, &gateway, NULL))
		return false;
	n.LocalIpAddress = local;
	n.RemoteIpAddress = remote;
	n.LocalPort = local_port;
	n.RemotePort = remote_port;
	n.Protocol = (UINT16)protocol;
	n.IpAddressOrigin = (UINT8)origin;
	n.PrefixLength = (UINT8)prefix;
	n.GatewayIpAddress = gateway;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_IPv6_DP);
	return true;
}

/* The login-option bits of the HeaderDigest, DataDigest and Authentication keywords. */
static bool iscsi_options(const struct dp_args *a, UINT16 *options)
{
	static const struct dp_kw digest[] = {{"None", 0}, {"CRC32C", 1}};
	static const struct dp_kw auth[] = {{"CHAP_BI", 0}, {"None", 1}, {"CHAP_UNI", 2}};
	UINT64 header = 0, data = 0, method = 1;

	if (!dp_arg_kw(a, 3, digest, 2, 1, &header) || !dp_arg_kw(a, 4, digest, 2, 1, &data) ||
	    !dp_arg_kw(a, 5, auth, 3, 2, &method))
		return false;
	*options = (UINT16)((header ? ISCSI_LOGIN_OPTION_HEADER_DIGEST_CRC32C : 0) |
			    (data ? ISCSI_LOGIN_OPTION_DATA_DIGEST_CRC32C : 0) |
			    (method == 1 ? ISCSI_LOGIN_OPTION_AUTHMETHOD_NON : 0) |
			    (method == 2 ? ISCSI_LOGIN_OPTION_CHAP_UNI : 0));
	return true;
}

/* iSCSI(TargetName,PortalGroup,LUN,HeaderDigest,DataDigest,Authentication,Protocol) */
static bool parse_iscsi(const struct dp_args *a, struct dp_buf *out)
{
	static const struct dp_kw tcp[] = {{"TCP", 0}};
	ISCSI_DEVICE_PATH n = {0};
	UINT64 tag, protocol = 0;
	UINT8 lun[8];
	UINT16 options;
	UINTN start;

	if (!dp_arg_req_u64(a, 1, 0xffff, &tag) || !dp_arg_be8(a, 2, true, lun) ||
	    !iscsi_options(a, &options) || !dp_arg_kw(a, 6, tcp, 1, 0xffff, &protocol))
		return false;
	n.NetworkProtocol = (UINT16)protocol;
	n.LoginOption = options;
	mem_copy(n.Lun, lun, 8);
	n.TargetPortalGroupTag = (UINT16)tag;
	start = dp_buf_node_begin(out, MSG, MSG_ISCSI_DP);
	dp_buf_put(out, (UINT8 *)&n + sizeof(n.Header), sizeof(n) - sizeof(n.Header));
	if (!dp_buf_put_str8(out, dp_str_unquote(a->v[0]), true))
		return false;
	return dp_buf_node_end(out, start);
}

static bool parse_vlan(const struct dp_args *a, struct dp_buf *out)
{
	VLAN_DEVICE_PATH n = {0};
	UINT64 id;

	if (!dp_arg_req_u64(a, 0, 0xffff, &id))
		return false;
	n.VlanId = (UINT16)id;
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_VLAN_DP);
	return true;
}

/* Uri(uri): the content is taken whole, commas included, without a terminator. */
static bool parse_uri(const struct dp_args *a, struct dp_buf *out)
{
	UINTN start = dp_buf_node_begin(out, MSG, MSG_URI_DP);

	if (!dp_buf_put_str8(out, a->raw, false))
		return false;
	return dp_buf_node_end(out, start);
}

static bool parse_bluetooth(const struct dp_args *a, struct dp_buf *out)
{
	BLUETOOTH_LE_DEVICE_PATH n = {0};
	UINT64 type = 0;
	UINTN len;

	if (!dp_arg_given(a, 0) || !dp_str_hexdump(a->v[0], n.Address, 6, &len) || len != 6 ||
	    !dp_arg_u64(a, 1, 0xff, &type))
		return false;
	n.AddressType = (UINT8)type;
	/* ctx tells Bluetooth (no address type) from BluetoothLE. */
	if (a->ctx == MSG_BLUETOOTH_DP)
		dp_buf_fixed(out, &n, sizeof(BLUETOOTH_DEVICE_PATH), MSG, MSG_BLUETOOTH_DP);
	else
		dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_BLUETOOTH_LE_DP);
	return true;
}

/* Wi-Fi(SSID): the content is taken whole (up to 32 bytes), zero-padded. */
static bool parse_wifi(const struct dp_args *a, struct dp_buf *out)
{
	WIFI_DEVICE_PATH n = {0};

	if (a->raw.n > sizeof(n.SSId))
		return false;
	for (UINTN i = 0; i < a->raw.n; i++) {
		if (a->raw.s[i] > 0xff)
			return false;
		n.SSId[i] = (UINT8)a->raw.s[i];
	}
	dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_WIFI_DP);
	return true;
}

/* Dns(server[,server...]): all IPv4 or all IPv6, each stored as a 16-byte EFI_IP_ADDRESS. */
static bool parse_dns(const struct dp_args *a, struct dp_buf *out)
{
	struct dp_str rest = a->raw, piece;
	bool more = rest.n > 0, first = true;
	UINT8 v6 = 0;
	UINTN start = dp_buf_node_begin(out, MSG, MSG_DNS_DP), flag_at = out->size;

	dp_buf_put(out, &v6, 1);
	while (dp_next_piece(&rest, &piece, &more)) {
		UINT8 addr[16] = {0};
		bool is_v6 = false;

		piece = dp_str_trim(piece);
		for (UINTN i = 0; i < piece.n; i++)
			is_v6 |= piece.s[i] == ':';
		if ((!first && is_v6 != (bool)v6) ||
		    !(is_v6 ? dp_str_ipv6(piece, addr, NULL) : dp_str_ipv4(piece, addr, NULL)))
			return false;
		v6 = is_v6;
		first = false;
		dp_buf_put(out, addr, sizeof(addr));
	}
	if (!out->failed)
		out->data[flag_at] = v6;
	return dp_buf_node_end(out, start);
}

/* RestService(Type,AccessMode[,VendorGuid[,Data]]), the vendor fields only for type 0xFF. */
static bool parse_rest(const struct dp_args *a, struct dp_buf *out)
{
	REST_SERVICE_DEVICE_PATH n = {0};
	UINT64 service, mode;
	EFI_GUID guid;
	UINTN start;

	if (!dp_arg_req_u64(a, 0, 0xff, &service) || !dp_arg_req_u64(a, 1, 0xff, &mode))
		return false;
	n.RESTService = (UINT8)service;
	n.AccessMode = (UINT8)mode;
	if (service != REST_SERVICE_VENDOR) {
		if (dp_arg_given(a, 2) || dp_arg_given(a, 3))
			return false;
		dp_buf_fixed(out, &n, sizeof(n), MSG, MSG_REST_SERVICE_DP);
		return true;
	}
	if (!dp_arg_req_guid(a, 2, &guid))
		return false;
	start = dp_buf_node_begin(out, MSG, MSG_REST_SERVICE_DP);
	dp_buf_put(out, (UINT8 *)&n + sizeof(n.Header), sizeof(n) - sizeof(n.Header));
	dp_buf_put(out, &guid, sizeof(guid));
	if (dp_arg_given(a, 3) && !dp_buf_put_hexdump(out, a->v[3]))
		return false;
	return dp_buf_node_end(out, start);
}

/* clang-format off */
const struct dp_parser_entry dp_parsers_net[] = {
	{"MAC", "MacAddr,IfType", parse_mac},
	{"IPv4", "RemoteIp,Protocol,Type,LocalIp,GatewayIPAddress,SubnetMask", parse_ipv4},
	{"IPv6", "RemoteIp,Protocol,IPAddressOrigin,LocalIp,PrefixLength,GatewayIPAddress",
	 parse_ipv6},
	{"iSCSI", "TargetName,PortalGroup,LUN,HeaderDigest,DataDigest,Authentication,Protocol",
	 parse_iscsi},
	{"Vlan", "VlanId", parse_vlan},
	{"Uri", "", parse_uri, 0, NULL, DP_PARSE_RAW},
	{"Bluetooth", "BD_ADDR", parse_bluetooth, MSG_BLUETOOTH_DP},
	{"BluetoothLE", "BD_ADDR,AddressType", parse_bluetooth, MSG_BLUETOOTH_LE_DP},
	{"Wi-Fi", "", parse_wifi, 0, NULL, DP_PARSE_RAW},
	{"Dns", "", parse_dns, 0, NULL, DP_PARSE_RAW},
	{"RestService", "RestExServiceType,AccessMode,VendorRestServiceGuid,VendorDefinedData",
	 parse_rest},
	{NULL},
};
/* clang-format on */
