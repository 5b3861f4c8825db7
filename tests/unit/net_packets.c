/* DHCP replies for the network tests, laid out from RFC 2131's figure 1. */
#include <string.h>

#include "net_packets.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

size_t test_dhcp_reply(uint8_t *buf, const struct test_dhcp_reply *r)
{
	size_t n = 240;

	memset(buf, 0, 576);
	buf[0] = 2;
	buf[1] = 1;
	buf[2] = 6;
	put32(buf + 4, r->xid);
	put32(buf + 16, r->yiaddr);
	put32(buf + 20, r->siaddr);
	memcpy(buf + 28, r->mac, 6);
	if (r->file)
		strncpy((char *)buf + 108, r->file, 128);
	if (r->file_area)
		memcpy(buf + 108, r->file_area, 128);
	put32(buf + 236, 0x63825363);
	if (r->type) {
		buf[n++] = 53;
		buf[n++] = 1;
		buf[n++] = r->type;
	}
	memcpy(buf + n, r->opts, r->opts_len);
	return n + r->opts_len;
}
