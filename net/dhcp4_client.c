/* The DHCPv4 client's exchange (RFC 2131, 4.4.1): DISCOVER, the first acceptable OFFER,
 * REQUEST, ACK. Retransmission is the caller's: it resends dhcp4_client_message. */
#include <ember/lib/str.h>
#include <ember/net/dhcp4.h>

void dhcp4_client_init(struct dhcp4_client *c, const uint8_t *mac, const uint8_t *uuid,
		       uint32_t xid, bool http)
{
	mem_set(c, 0, sizeof(*c));
	c->state = DHCP4_SELECTING;
	c->xid = xid;
	c->http = http;
	mem_copy(c->mac, mac, NET_MAC_LEN);
	if (uuid) {
		mem_copy(c->uuid, uuid, 16);
		c->has_uuid = true;
	}
}

size_t dhcp4_client_message(const struct dhcp4_client *c, uint8_t *buf, size_t cap, uint16_t secs)
{
	struct dhcp4_request r = {
	    .type = c->state == DHCP4_SELECTING ? DHCP4_DISCOVER : DHCP4_REQUEST,
	    .xid = c->xid,
	    .secs = secs,
	    .requested_ip = c->offer.yiaddr,
	    .server_id = c->offer.server_id,
	    .uuid = c->has_uuid ? c->uuid : NULL,
	    .http = c->http,
	};

	mem_copy(r.mac, c->mac, NET_MAC_LEN);
	return dhcp4_build(buf, cap, &r);
}

/* An offer is taken when it gives an address and names its server (RFC 2131 requires 54). */
static enum dhcp4_event dhcp4_take_offer(struct dhcp4_client *c, const struct dhcp4_reply *r,
					 const char **why)
{
	if (!r->yiaddr || r->yiaddr == NET_IPV4_BROADCAST || !r->server_id) {
		*why = "offer without an address or a server identifier";
		return DHCP4_IGNORED;
	}
	c->offer = *r;
	c->state = DHCP4_REQUESTING;
	return DHCP4_OFFERED;
}

static enum dhcp4_event dhcp4_take_ack(struct dhcp4_client *c, const struct dhcp4_reply *r,
				       const char **why)
{
	if (r->server_id && r->server_id != c->offer.server_id) {
		*why = "answer from another server";
		return DHCP4_IGNORED;
	}
	if (r->type == DHCP4_NAK) {
		c->state = DHCP4_SELECTING;
		return DHCP4_NAKED;
	}
	if (r->yiaddr != c->offer.yiaddr) {
		*why = "ACK for another address";
		return DHCP4_IGNORED;
	}
	c->lease = *r;
	/* The boot file and next server may come with the offer only. */
	if (!c->lease.boot_file[0])
		mem_copy(c->lease.boot_file, c->offer.boot_file, sizeof(c->lease.boot_file));
	if (!c->lease.tftp_server[0])
		mem_copy(c->lease.tftp_server, c->offer.tftp_server, sizeof(c->lease.tftp_server));
	if (!c->lease.siaddr)
		c->lease.siaddr = c->offer.siaddr;
	c->state = DHCP4_BOUND;
	return DHCP4_BOUND_NOW;
}

enum dhcp4_event dhcp4_client_input(struct dhcp4_client *c, const uint8_t *p, size_t len,
				    const char **why)
{
	struct dhcp4_reply r;

	*why = dhcp4_parse(p, len, c->xid, c->mac, &r);
	if (*why)
		return DHCP4_IGNORED;
	if (r.type == DHCP4_OFFER && !r.yiaddr && r.pxe_class && r.boot_file[0]) {
		if (c->has_proxy) {
			*why = "a second proxyDHCP offer";
			return DHCP4_IGNORED;
		}
		c->proxy = r;
		c->has_proxy = true;
		return DHCP4_PROXY;
	}
	if (c->state == DHCP4_SELECTING && r.type == DHCP4_OFFER)
		return dhcp4_take_offer(c, &r, why);
	if (c->state == DHCP4_REQUESTING && (r.type == DHCP4_ACK || r.type == DHCP4_NAK))
		return dhcp4_take_ack(c, &r, why);
	*why = "not the message awaited";
	return DHCP4_IGNORED;
}

const struct dhcp4_reply *dhcp4_client_boot(const struct dhcp4_client *c)
{
	if (c->state == DHCP4_BOUND && c->lease.boot_file[0])
		return &c->lease;
	return c->has_proxy ? &c->proxy : NULL;
}
