/* The DHCPv4 messages the client sends: DISCOVER and REQUEST, with the PXE options of
 * RFC 4578 (93 client architecture, 94 network interface, 97 machine identifier) and the
 * vendor class of the PXE or HTTP boot client (UEFI 2.10, 24.3.1 and 24.7). */
#include <ember/lib/str.h>
#include <ember/net/dhcp4.h>

/* x64 UEFI's client architecture types (IANA "Processor Architecture Types"). */
#define DHCP4_ARCH_X64 0x0007
#define DHCP4_ARCH_X64_HTTP 0x0010
#define BOOTP_MIN_LEN 300

static size_t dhcp4_put(uint8_t *p, uint8_t code, const void *value, uint8_t len)
{
	p[0] = code;
	p[1] = len;
	mem_copy(p + 2, value, len);
	return 2 + (size_t)len;
}

static size_t dhcp4_put32(uint8_t *p, uint8_t code, uint32_t value)
{
	uint8_t v[4];

	net_put32(v, value);
	return dhcp4_put(p, code, v, 4);
}

/* The options every message carries: the PXE or HTTP boot client's identity. */
static size_t dhcp4_client_options(uint8_t *p, const struct dhcp4_request *r)
{
	static const uint8_t params[] = {1, 3, 6, 43, 51, 54, 60, 66, 67, 97};
	const char *vendor =
	    r->http ? "HTTPClient:Arch:00016:UNDI:003001" : "PXEClient:Arch:00007:UNDI:003000";
	uint8_t max_size[2], arch[2], undi[3] = {1, 3, 0}, guid[17] = {0};
	size_t n = 0;

	net_put16(max_size, 1472); /* what one Ethernet frame carries */
	net_put16(arch, r->http ? DHCP4_ARCH_X64_HTTP : DHCP4_ARCH_X64);
	if (r->uuid)
		mem_copy(guid + 1, r->uuid, 16);
	n += dhcp4_put(p + n, 57, max_size, 2);
	n += dhcp4_put(p + n, 55, params, sizeof(params));
	n += dhcp4_put(p + n, 93, arch, 2);
	n += dhcp4_put(p + n, 94, undi, 3);
	n += dhcp4_put(p + n, 97, guid, 17);
	n += dhcp4_put(p + n, 60, vendor, (uint8_t)str8_len(vendor));
	return n;
}

size_t dhcp4_build(uint8_t *buf, size_t cap, const struct dhcp4_request *r)
{
	uint8_t *o = buf + DHCP4_OPTIONS_OFFSET;
	size_t n = 0;

	if (cap < DHCP4_MESSAGE_MAX)
		return 0;
	mem_set(buf, 0, DHCP4_MESSAGE_MAX);
	buf[0] = 1; /* BOOTREQUEST */
	buf[1] = 1;
	buf[2] = NET_MAC_LEN;
	net_put32(buf + 4, r->xid);
	net_put16(buf + 8, r->secs);
	net_put16(buf + 10, 0x8000); /* broadcast: without an address we cannot take unicast */
	mem_copy(buf + 28, r->mac, NET_MAC_LEN);
	net_put32(buf + 236, 0x63825363u);
	n += dhcp4_put(o + n, 53, &r->type, 1);
	if (r->type == DHCP4_REQUEST) {
		n += dhcp4_put32(o + n, 50, r->requested_ip);
		n += dhcp4_put32(o + n, 54, r->server_id);
	}
	n += dhcp4_client_options(o + n, r);
	o[n++] = 255;
	n += DHCP4_OPTIONS_OFFSET;
	return n < BOOTP_MIN_LEN ? BOOTP_MIN_LEN : n;
}
