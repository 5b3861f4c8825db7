/* ARP packets for IPv4 over Ethernet (RFC 826) and the neighbour cache. */
#include <ember/lib/str.h>
#include <ember/net/arp.h>

bool arp_parse(const uint8_t *p, size_t len, struct arp_packet *out)
{
	if (!p || len < ARP_LEN)
		return false;
	if (net_get16(p) != 1 || net_get16(p + 2) != 0x0800 || p[4] != NET_MAC_LEN || p[5] != 4)
		return false;
	out->op = net_get16(p + 6);
	if (out->op != ARP_REQUEST && out->op != ARP_REPLY)
		return false;
	/* A group sender address would poison the cache for every host. */
	if (p[8] & 1)
		return false;
	mem_copy(out->sha, p + 8, NET_MAC_LEN);
	out->spa = net_get32(p + 14);
	mem_copy(out->tha, p + 18, NET_MAC_LEN);
	out->tpa = net_get32(p + 24);
	return true;
}

size_t arp_build(uint8_t *buf, size_t cap, const struct arp_packet *a)
{
	if (cap < ARP_LEN)
		return 0;
	net_put16(buf, 1);
	net_put16(buf + 2, 0x0800);
	buf[4] = NET_MAC_LEN;
	buf[5] = 4;
	net_put16(buf + 6, a->op);
	mem_copy(buf + 8, a->sha, NET_MAC_LEN);
	net_put32(buf + 14, a->spa);
	mem_copy(buf + 18, a->tha, NET_MAC_LEN);
	net_put32(buf + 24, a->tpa);
	return ARP_LEN;
}

static int arp_cache_find(const struct arp_cache *c, uint32_t ip)
{
	for (int i = 0; i < ARP_CACHE_SIZE; i++)
		if (ip && c->entry[i].ip == ip)
			return i;
	return -1;
}

void arp_cache_put(struct arp_cache *c, uint32_t ip, const uint8_t *mac)
{
	int i = arp_cache_find(c, ip);

	if (!ip || ip == NET_IPV4_BROADCAST)
		return;
	if (i < 0) {
		i = (int)(c->next % ARP_CACHE_SIZE);
		c->next = (unsigned)i + 1;
		c->entry[i].ip = ip;
	}
	mem_copy(c->entry[i].mac, mac, NET_MAC_LEN);
}

bool arp_cache_get(const struct arp_cache *c, uint32_t ip, uint8_t *mac)
{
	int i = arp_cache_find(c, ip);

	if (i < 0)
		return false;
	mem_copy(mac, c->entry[i].mac, NET_MAC_LEN);
	return true;
}

bool arp_input(struct arp_cache *c, uint32_t our_ip, const uint8_t *our_mac,
	       const struct arp_packet *in, struct arp_packet *reply)
{
	bool for_us = our_ip && in->tpa == our_ip;

	/* RFC 826: update a known sender; add it only when the packet is meant for us. */
	if (arp_cache_find(c, in->spa) >= 0 || for_us)
		arp_cache_put(c, in->spa, in->sha);
	if (!for_us || in->op != ARP_REQUEST)
		return false;
	reply->op = ARP_REPLY;
	mem_copy(reply->sha, our_mac, NET_MAC_LEN);
	reply->spa = our_ip;
	mem_copy(reply->tha, in->sha, NET_MAC_LEN);
	reply->tpa = in->spa;
	return true;
}
